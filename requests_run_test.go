package sesame_test

// How the request expectations of requests_test.go (and of the other
// *_requests_test.go tables) are run and compared: translate a scenario,
// send each request through envoysim, and compare what a client or backend
// would observe.

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/internal/manifest"
)

// runRequests sends every request of tables through its route table and
// returns how many it checked.
func runRequests(t *testing.T, tables []requestFile) int {
	t.Helper()
	translated := translations(t)
	n := 0
	for _, tt := range tables {
		res := translated(tt.file)
		rc := routeTable(res, tt.routes)
		if rc == nil {
			t.Errorf("%s: no RouteConfiguration %q; have %v", tt.file, tt.routes, routeTableNames(res))
			continue
		}
		defined := map[string]bool{}
		for _, c := range res.XDS.Clusters {
			defined[c.GetName()] = true
		}
		for _, r := range tt.requests {
			if err := r.want.check(); err != nil {
				t.Fatalf("%s: %s: %v", tt.file, r.name, err)
			}
			n++
			got := envoysim.Route(rc, tt.scheme, r.req)
			if msg := r.want.compare(got, observe(got, defined), r.req); msg != "" {
				t.Errorf("%s (%s): %s: %s\n\t%s", tt.file, tt.routes, r.name, describeRequest(r.req), msg)
			}
		}
	}
	return n
}

// translations returns translateRequestFile, each file translated once.
func translations(t *testing.T) func(file string) *sesame.Result {
	results := map[string]*sesame.Result{}
	return func(file string) *sesame.Result {
		res, ok := results[file]
		if !ok {
			res = translateRequestFile(t, file)
			results[file] = res
		}
		return res
	}
}

func translateRequestFile(t *testing.T, file string) *sesame.Result {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "requests", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	objects, warnings, err := manifest.Decode(file, f)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		t.Errorf("%v", w)
	}
	res, err := sesame.Translate(objects, requestOptions)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(res.Repairs) > 0 {
		t.Fatalf("%s: Translate took out messages Envoy would refuse (a bug): %v", file, res.Repairs)
	}
	return res
}

func routeTable(res *sesame.Result, name string) *routev3.RouteConfiguration {
	for _, rc := range res.XDS.Routes {
		if rc.GetName() == name {
			return rc
		}
	}
	return nil
}

func routeTableNames(res *sesame.Result) []string {
	var names []string
	for _, rc := range res.XDS.Routes {
		names = append(names, rc.GetName())
	}
	return names
}

// outcome is what a client observes of a routed request: the cluster that
// receives it, the shares of a split, or the status it is answered with.
type outcome struct {
	cluster  string
	weights  map[string]uint32
	status   uint32
	location string
}

// observe turns the router's decision into what a client sees. A cluster
// that defined does not hold answers NotFoundStatus; in a split its share
// keeps its name when that status is the 500 the spec asks of invalid
// backends, and is renamed after the status otherwise, so that a wrong
// status shows as a wrong split. Zero shares are dropped, and a split left
// with one share is that one cluster.
func observe(res envoysim.Result, defined map[string]bool) outcome {
	switch {
	case res.Redirect != nil:
		return outcome{status: res.Redirect.Status, location: res.Redirect.Location}
	case res.Status() != 0:
		return outcome{status: res.Status()}
	case res.Cluster != "":
		if !defined[res.Cluster] {
			return outcome{status: res.NotFoundStatus}
		}
		return outcome{cluster: res.Cluster}
	}
	shares := map[string]uint32{}
	for name, w := range res.WeightedClusters {
		if w == 0 {
			continue
		}
		if !defined[name] && res.NotFoundStatus != 500 {
			name = fmt.Sprintf("%s (answers %d)", name, res.NotFoundStatus)
		}
		shares[name] += w
	}
	if len(shares) == 1 {
		for name := range shares {
			if !defined[name] {
				return outcome{status: res.NotFoundStatus}
			}
			return outcome{cluster: name}
		}
	}
	return outcome{weights: shares}
}

func (o outcome) String() string {
	switch {
	case o.cluster != "":
		return "cluster " + o.cluster
	case o.location != "":
		return fmt.Sprintf("status %d, Location %s", o.status, o.location)
	case o.status != 0:
		return fmt.Sprintf("status %d", o.status)
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(o.weights)) {
		parts = append(parts, fmt.Sprintf("%s: %d", name, o.weights[name]))
	}
	return "split {" + strings.Join(parts, ", ") + "}"
}

// check reports a table entry that does not say exactly one thing.
func (w want) check() error {
	set := 0
	for _, b := range []bool{w.cluster != "", len(w.weights) > 0, w.status != 0} {
		if b {
			set++
		}
	}
	switch {
	case set != 1:
		return fmt.Errorf("set exactly one of cluster, weights and status")
	case w.location != "" && (w.status < 300 || w.status > 399):
		return fmt.Errorf("location needs a 3xx status")
	case w.upstream != nil && w.cluster == "" && len(w.weights) == 0:
		return fmt.Errorf("upstream needs a forwarded request")
	}
	return nil
}

func (w want) outcome() outcome {
	return outcome{cluster: w.cluster, weights: w.weights, status: w.status, location: w.location}
}

// compare returns "" when got is what w asks for, and otherwise says what
// was expected, what happened, and where in the route table.
func (w want) compare(res envoysim.Result, got outcome, req envoysim.Request) string {
	where := "no virtual host"
	if res.VirtualHost != "" {
		where = fmt.Sprintf("virtual host %q, route %q", res.VirtualHost, res.Route)
		if res.RouteProto == nil {
			where = fmt.Sprintf("virtual host %q, no route", res.VirtualHost)
		}
	}
	if !sameOutcome(w.outcome(), got) {
		return fmt.Sprintf("want %v, got %v (%s)", w.outcome(), got, where)
	}
	if w.upstream == nil {
		return ""
	}
	if diffs := w.upstream.compare(res, req); len(diffs) > 0 {
		return fmt.Sprintf("forwarded to %v (%s), but %s", got, where, strings.Join(diffs, "; "))
	}
	return ""
}

// sameOutcome compares splits as proportions: 80/20 is 4/1.
func sameOutcome(want, got outcome) bool {
	if want.cluster != got.cluster || want.status != got.status || want.location != got.location ||
		len(want.weights) != len(got.weights) {
		return false
	}
	var wantTotal, gotTotal uint64
	for _, v := range want.weights {
		wantTotal += uint64(v)
	}
	for _, v := range got.weights {
		gotTotal += uint64(v)
	}
	for name, v := range want.weights {
		g, ok := got.weights[name]
		if !ok || uint64(v)*gotTotal != uint64(g)*wantTotal {
			return false
		}
	}
	return true
}

// compare lists how the forwarded request differs from u.
func (u *upstream) compare(res envoysim.Result, req envoysim.Request) []string {
	var diffs []string
	action, route := res.RouteAction, res.RouteProto
	if u.path != "" {
		if got := envoysim.RewritePath(action, route.GetMatch(), req.Path); got != u.path {
			diffs = append(diffs, fmt.Sprintf("path %q, want %q", got, u.path))
		}
	}
	if u.host != "" && action.GetHostRewriteLiteral() != u.host {
		diffs = append(diffs, fmt.Sprintf("host_rewrite_literal %q, want %q", action.GetHostRewriteLiteral(), u.host))
	}
	set, add := headersToAdd(route.GetRequestHeadersToAdd())
	if u.set != nil && !equalFoldKeys(set, u.set) {
		diffs = append(diffs, fmt.Sprintf("headers set %v, want %v", set, u.set))
	}
	if u.add != nil && !equalFoldKeys(add, u.add) {
		diffs = append(diffs, fmt.Sprintf("headers added %v, want %v", add, u.add))
	}
	if u.remove != nil && !equalFoldNames(route.GetRequestHeadersToRemove(), u.remove) {
		diffs = append(diffs, fmt.Sprintf("headers removed %v, want %v", route.GetRequestHeadersToRemove(), u.remove))
	}
	if u.mirrors != nil {
		var got []string
		for _, m := range action.GetRequestMirrorPolicies() {
			got = append(got, m.GetCluster())
		}
		if !slices.Equal(got, u.mirrors) {
			diffs = append(diffs, fmt.Sprintf("mirrored to %v, want %v", got, u.mirrors))
		}
	}
	if u.timeout != 0 && action.GetTimeout().AsDuration() != u.timeout {
		diffs = append(diffs, fmt.Sprintf("timeout %v, want %v", action.GetTimeout().AsDuration(), u.timeout))
	}
	if u.untimed && (action.GetTimeout() == nil || action.GetTimeout().AsDuration() != 0) {
		diffs = append(diffs, fmt.Sprintf("timeout %v, want 0s (disabled)", action.GetTimeout()))
	}
	return diffs
}

// headersToAdd splits a route's request_headers_to_add into the headers it
// overwrites and those it appends to.
func headersToAdd(opts []*corev3.HeaderValueOption) (set, add map[string]string) {
	set, add = map[string]string{}, map[string]string{}
	for _, o := range opts {
		switch o.GetAppendAction() {
		case corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD:
			set[o.GetHeader().GetKey()] = o.GetHeader().GetValue()
		case corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD:
			add[o.GetHeader().GetKey()] = o.GetHeader().GetValue()
		default:
			add[fmt.Sprintf("%s (%v)", o.GetHeader().GetKey(), o.GetAppendAction())] = o.GetHeader().GetValue()
		}
	}
	return set, add
}

// equalFoldKeys compares header maps with names in any case, as HTTP does.
func equalFoldKeys(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		found := false
		for gk, gv := range got {
			if strings.EqualFold(gk, k) && gv == v {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func equalFoldNames(got, want []string) bool {
	return slices.EqualFunc(got, want, strings.EqualFold)
}

// describeRequest writes a request the way a person would: "GET
// foo.example.com/x (x-a: 1)".
func describeRequest(r envoysim.Request) string {
	s := fmt.Sprintf("%s %s%s", r.Method, r.Authority, r.Path)
	var headers []string
	for _, name := range slices.Sorted(maps.Keys(r.Headers)) {
		for _, v := range r.Headers[name] {
			headers = append(headers, name+": "+v)
		}
	}
	if len(headers) > 0 {
		s += " (" + strings.Join(headers, ", ") + ")"
	}
	return s
}
