package dispatch

// AttributesFromRequest is checked three ways: a table written from
// Kubernetes' request-info rules, a differential test that compares it with
// k8s.io/apiserver's RequestInfoFactory on generated requests, and
// FuzzAttributes, which does the same comparison on fuzzed ones. Run the
// fuzzer with
//
//	go test -run '^$' -fuzz FuzzAttributes -fuzztime 30s ./dispatch

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/util/sets"
	apirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/klog/v2"
)

func init() {
	// RequestInfoFactory logs every query it cannot decode; the tests
	// make many on purpose.
	klog.SetLogger(logr.Discard())
}

// describeAttrs writes a in the notation of requestTests: the kind of request,
// the verb, and the fields that are set.
func describeAttrs(a Attributes) string {
	if !a.IsResourceRequest {
		return fmt.Sprintf("nonresource %s %s", a.Verb, a.Path)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s res=%s", a.Verb, a.Resource)
	for _, f := range []struct{ k, v string }{{"sub", a.Subresource}, {"group", a.APIGroup}, {"ns", a.Namespace}, {"name", a.Name}} {
		if f.v != "" {
			fmt.Fprintf(&b, " %s=%s", f.k, f.v)
		}
	}
	return b.String()
}

// newRequest returns a request with the method and the URL target, a path
// and an optional "?query" taken as they are: the path is not unescaped,
// so that tests can write any path.
func newRequest(method, target string) *http.Request {
	path, query, _ := strings.Cut(target, "?")
	return &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}}
}

// requestTests are Kubernetes' request-info rules, one request per line.
var requestTests = []struct {
	method, target, want string
}{
	// Non-resource requests: everything that does not start with an API
	// prefix and name a resource. The verb is the lower-case method.
	{"GET", "/healthz", "nonresource get /healthz"},
	{"HEAD", "/healthz/etcd", "nonresource head /healthz/etcd"},
	{"POST", "/api", "nonresource post /api"},
	{"GET", "/api/v1", "nonresource get /api/v1"},
	{"GET", "/apis/apps/v1", "nonresource get /apis/apps/v1"},
	{"GET", "/apis/apps", "nonresource get /apis/apps"},
	{"GET", "/", "nonresource get /"},
	{"GET", "", "nonresource get "},
	{"OPTIONS", "/version", "nonresource options /version"},
	{"BREW", "/openapi/v2", "nonresource brew /openapi/v2"},
	{"GET", "/apiz/v1/pods", "nonresource get /apiz/v1/pods"},
	{"GET", "/API/v1/pods", "nonresource get /API/v1/pods"},
	{"GET", "/metrics/api/v1/pods", "nonresource get /metrics/api/v1/pods"},

	// Core group resources: verbs from the method, list and
	// deletecollection without a name.
	{"GET", "/api/v1/pods", "list res=pods"},
	{"GET", "/api/v1/namespaces/default/pods/web", "get res=pods ns=default name=web"},
	{"HEAD", "/api/v1/namespaces/default/pods/web", "get res=pods ns=default name=web"},
	{"HEAD", "/api/v1/namespaces/default/pods", "list res=pods ns=default"},
	{"POST", "/api/v1/namespaces/default/pods", "create res=pods ns=default"},
	{"PUT", "/api/v1/namespaces/default/pods/web", "update res=pods ns=default name=web"},
	{"PATCH", "/api/v1/namespaces/default/pods/web", "patch res=pods ns=default name=web"},
	{"DELETE", "/api/v1/namespaces/default/pods/web", "delete res=pods ns=default name=web"},
	{"DELETE", "/api/v1/namespaces/default/pods", "deletecollection res=pods ns=default"},
	{"OPTIONS", "/api/v1/pods", " res=pods"},
	{"get", "/api/v1/pods", " res=pods"},
	{"GET", "/api/v1/nodes/n1", "get res=nodes name=n1"},

	// Subresources, and what follows them.
	{"GET", "/api/v1/namespaces/default/pods/web/log", "get res=pods sub=log ns=default name=web"},
	{"GET", "/api/v1/namespaces/default/pods/web/log/more/parts", "get res=pods sub=log ns=default name=web"},
	{"POST", "/api/v1/namespaces/default/pods/web/eviction", "create res=pods sub=eviction ns=default name=web"},
	{"GET", "/api/v1/namespaces/default/pods/web/proxy/metrics", "get res=pods sub=proxy ns=default name=web"},

	// Named groups.
	{"GET", "/apis/apps/v1/deployments", "list res=deployments group=apps"},
	{"GET", "/apis/apps/v1/namespaces/ns/deployments/web/scale", "get res=deployments sub=scale group=apps ns=ns name=web"},
	{"PUT", "/apis/apps/v1/namespaces/ns/deployments/web/status", "update res=deployments sub=status group=apps ns=ns name=web"},
	{"POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", "create res=subjectaccessreviews group=authorization.k8s.io"},
	{"GET", "/apis/apps/v1/namespaces", "list res=namespaces group=apps"},

	// The namespaces resource, and its own subresources.
	{"GET", "/api/v1/namespaces", "list res=namespaces"},
	{"GET", "/api/v1/namespaces/default", "get res=namespaces ns=default name=default"},
	{"DELETE", "/api/v1/namespaces/default", "delete res=namespaces ns=default name=default"},
	{"PUT", "/api/v1/namespaces/default/status", "update res=namespaces sub=status ns=default name=default"},
	{"PUT", "/api/v1/namespaces/default/finalize", "update res=namespaces sub=finalize ns=default name=default"},
	{"GET", "/api/v1/namespaces/default/namespaces", "list res=namespaces ns=default"},
	{"GET", "/api/v1/namespaces/default/status/x", "get res=namespaces sub=status ns=default name=default"},

	// Watch: by query on a get without a name, or by the legacy path.
	{"GET", "/api/v1/pods?watch=true", "watch res=pods"},
	{"GET", "/api/v1/pods?watch=1", "watch res=pods"},
	{"GET", "/api/v1/pods?watch=false", "list res=pods"},
	{"GET", "/api/v1/pods?watch=FaLsE", "list res=pods"},
	{"GET", "/api/v1/pods?watch=0", "list res=pods"},
	{"GET", "/api/v1/pods?watch=", "watch res=pods"},
	{"GET", "/api/v1/pods?watch", "watch res=pods"},
	{"GET", "/api/v1/pods?watch=no", "watch res=pods"},
	{"GET", "/api/v1/pods?watch=false&watch=true", "list res=pods"},
	{"GET", "/api/v1/pods?w%61tch=1", "watch res=pods"},
	{"GET", "/api/v1/pods?watch=1;x", "list res=pods"},
	{"GET", "/api/v1/pods?watch=%zz&watch=1", "watch res=pods"},
	{"GET", "/api/v1/pods?watch=fal%C5%BFe", "list res=pods"},
	{"GET", "/api/v1/pods?watch=fal%C5%BFe&limit=x", "watch res=pods"},
	{"GET", "/api/v1/namespaces/default/pods/web?watch=true", "get res=pods ns=default name=web"},
	{"POST", "/api/v1/pods?watch=true", "create res=pods"},
	{"GET", "/api/v1/watch/pods", "watch res=pods"},
	{"GET", "/api/v1/watch/namespaces/default/pods/web", "watch res=pods ns=default name=web"},
	{"POST", "/apis/apps/v1/watch/namespaces/ns/deployments/web/status", "watch res=deployments sub=status group=apps ns=ns name=web"},
	{"GET", "/api/v1/watch/pods?fieldSelector=metadata.name%3Dweb", "watch res=pods"},

	// Proxy, the other verb in the path; it has no subresource.
	{"GET", "/api/v1/proxy/namespaces/ns/pods/web/metrics", "proxy res=pods ns=ns name=web"},
	{"GET", "/api/v1/proxy/nodes", "proxy res=nodes"},

	// A verb in the path with nothing after it: Kubernetes gives up with
	// the attributes it has.
	{"GET", "/api/v1/watch", "get res="},
	{"DELETE", "/apis/apps/v1/proxy", "delete res= group=apps"},

	// fieldSelector=metadata.name=<name> names the object of a list or
	// watch, if all the list options decode.
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb", "list res=pods name=web"},
	{"GET", "/api/v1/namespaces/default/pods?watch=1&fieldSelector=metadata.name%3Dweb", "watch res=pods ns=default name=web"},
	{"GET", "/api/v1/pods?watch=TRUE&fieldSelector=metadata.name%3Dweb%2Cstatus.phase!%3DFailed", "watch res=pods name=web"},
	{"GET", "/api/v1/pods?watch=TRUE&fieldSelector=metadata.name%3Dweb%2Cstatus.phase!%3DFailed&limit=ten", "watch res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3D%3Dweb", "list res=pods name=web"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name!%3Dweb", "list res=pods"},
	{"GET", "/api/v1/pods?watch=1&fieldSelector=status.phase%3DRunning,metadata.name%3Dweb", "watch res=pods name=web"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Db,metadata.name%3Da", "list res=pods name=a"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3D%3Db,metadata.name%3Da", "list res=pods name=b"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dw%5C,eb", "list res=pods name=w,eb"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dw,eb", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Da%252Fb", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Da/b", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3D..", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb&limit=ten", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb&limit=", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb&limit=500&timeoutSeconds=-1", "list res=pods name=web"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb&timeoutSeconds=1.5", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb&labelSelector=app%20in", "list res=pods"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb&labelSelector=app%20in%20(a,b),tier!%3Ddb", "list res=pods name=web"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb&fieldSelector=metadata.name%3Dother", "list res=pods name=web"},
	{"GET", "/api/v1/pods?fieldSelector=metadata.name%3Dweb;", "list res=pods"},
	{"GET", "/api/v1/namespaces/default/pods/web?fieldSelector=metadata.name%3Dother", "get res=pods ns=default name=web"},
	{"DELETE", "/api/v1/pods?fieldSelector=metadata.name%3Dweb", "deletecollection res=pods"},

	// Odd paths: slashes at either end are dropped, empty segments inside
	// are segments.
	{"GET", "/api/v1/pods/", "list res=pods"},
	{"GET", "///api/v1/pods///", "list res=pods"},
	{"GET", "/api//v1/pods", "get res=v1 name=pods"},
	{"GET", "/api/v1//pods", "get res= name=pods"},
	{"GET", "/api/v1/pods//log", "list res=pods sub=log"},
	{"DELETE", "/api/v1/pods//log", "deletecollection res=pods sub=log"},
	{"GET", "/apis/apps//deployments", "list res=deployments group=apps"},
	{"GET", "/api/v1/namespaces//pods", "list res=pods"},
	{"GET", "/api/v1/namespaces/", "list res=namespaces"},
}

// TestAttributesFromRequest checks the table, and that apiserver agrees
// with every line of it.
func TestAttributesFromRequest(t *testing.T) {
	for _, tt := range requestTests {
		r := newRequest(tt.method, tt.target)
		a := AttributesFromRequest(r, "alice", []string{"dev"})
		if got := describeAttrs(a); got != tt.want {
			t.Errorf("%s %s: got %q, want %q", tt.method, tt.target, got, tt.want)
		}
		if a.Path != r.URL.Path || a.User != "alice" || len(a.Groups) != 1 {
			t.Errorf("%s %s: Path, User or Groups not kept: %+v", tt.method, tt.target, a)
		}
		checkAgainstAPIServer(t, kubernetes, apiserverKubernetes, r)
	}
}

// TestAttributesQueryLimit: net/url reads a query of more than 10000 pairs
// as empty, and so does Kubernetes.
func TestAttributesQueryLimit(t *testing.T) {
	for _, n := range []int{maxQueryParams, maxQueryParams + 1} {
		target := "/api/v1/pods?watch=1" + strings.Repeat("&", n-1)
		r := newRequest("GET", target)
		want := map[bool]string{true: "watch res=pods", false: "list res=pods"}[n <= maxQueryParams]
		if got := describeAttrs(AttributesFromRequest(r, "", nil)); got != want {
			t.Errorf("%d pairs: got %q, want %q", n, got, want)
		}
		checkAgainstAPIServer(t, kubernetes, apiserverKubernetes, r)
	}
}

// TestRequestParserPrefixes checks other API prefixes against apiserver
// configured the same way.
func TestRequestParserPrefixes(t *testing.T) {
	p := NewRequestParser([]string{"api", "apis", "custom", "legacy"}, []string{"api", "legacy"})
	f := &apirequest.RequestInfoFactory{
		APIPrefixes:          sets.NewString("api", "apis", "custom", "legacy"),
		GrouplessAPIPrefixes: sets.NewString("api", "legacy"),
	}
	for _, target := range []string{
		"/custom/apps/v1/deployments", "/custom/v1/pods", "/legacy/v1/pods", "/legacy/v1",
		"/api/v1/pods", "/apis/apps/v1/deployments", "/other/v1/pods",
	} {
		checkAgainstAPIServer(t, p, f, newRequest("GET", target))
	}
	var zero RequestParser
	if a := zero.Attributes(newRequest("GET", "/api/v1/pods"), "", nil); a.IsResourceRequest {
		t.Errorf("the zero RequestParser read a resource request: %+v", a)
	}
}

func TestNewRequestParserPanics(t *testing.T) {
	for _, tt := range []struct {
		prefixes, groupless []string
		want                string
	}{
		{[]string{""}, nil, `dispatch: NewRequestParser: API prefix "" is not a single path segment`},
		{[]string{"/api"}, nil, `dispatch: NewRequestParser: API prefix "/api" is not a single path segment`},
		{[]string{"apis"}, []string{"api"}, `dispatch: NewRequestParser: groupless prefix "api" is not among the API prefixes ["apis"]`},
	} {
		func() {
			defer func() {
				if got := recover(); got != tt.want {
					t.Errorf("NewRequestParser(%q, %q) panicked with %v, want %q", tt.prefixes, tt.groupless, got, tt.want)
				}
			}()
			NewRequestParser(tt.prefixes, tt.groupless)
		}()
	}
}

// TestAttributesAllocs: a request with its name in the path, or a list
// without percent-encoding in its query, costs nothing.
func TestAttributesAllocs(t *testing.T) {
	for _, target := range []string{
		"/api/v1/namespaces/default/pods/web/log",
		"/apis/apps/v1/namespaces/ns/deployments?watch=true&resourceVersion=10&labelSelector=app%3Dweb",
		"/api/v1/watch/namespaces/ns/pods",
		"/healthz/etcd",
	} {
		r := newRequest("GET", target)
		if n := testing.AllocsPerRun(100, func() { sinkAttributes = AttributesFromRequest(r, "u", nil) }); n != 0 {
			t.Errorf("GET %s: %v allocations, want 0", target, n)
		}
	}
}

var sinkAttributes Attributes

func BenchmarkAttributesFromRequest(b *testing.B) {
	for _, tt := range []struct{ name, target string }{
		{"get", "/api/v1/namespaces/default/pods/web/log"},
		{"watch", "/apis/apps/v1/namespaces/ns/deployments?watch=true&resourceVersion=10"},
		{"fieldSelector", "/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dweb"},
		{"nonresource", "/healthz/etcd"},
	} {
		r := newRequest("GET", tt.target)
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkAttributes = AttributesFromRequest(r, "u", nil)
			}
		})
	}
}

// apiserverKubernetes is apiserver's parser for Kubernetes' own prefixes,
// configured as kube-apiserver configures it.
var apiserverKubernetes = &apirequest.RequestInfoFactory{
	APIPrefixes:          sets.NewString("api", "apis"),
	GrouplessAPIPrefixes: sets.NewString("api"),
}

// fromRequestInfo maps apiserver's RequestInfo onto Attributes. APIPrefix,
// APIVersion, Parts and the selectors have no counterpart.
func fromRequestInfo(info *apirequest.RequestInfo, user string, groups []string) Attributes {
	return Attributes{
		Verb:              info.Verb,
		APIGroup:          info.APIGroup,
		Resource:          info.Resource,
		Subresource:       info.Subresource,
		Name:              info.Name,
		Namespace:         info.Namespace,
		Path:              info.Path,
		User:              user,
		Groups:            groups,
		IsResourceRequest: info.IsResourceRequest,
	}
}

// checkAgainstAPIServer reports whether p and f agree on r. When f fails
// (a verb in the path with nothing after it), p must give the partial
// RequestInfo f returns with its error. It returns the Attributes of r.
func checkAgainstAPIServer(t testing.TB, p *RequestParser, f *apirequest.RequestInfoFactory, r *http.Request) Attributes {
	t.Helper()
	got := p.Attributes(r, "u", []string{"g"})
	info, err := f.NewRequestInfo(r)
	if info == nil {
		t.Fatalf("%q %q ?%q: apiserver returned no RequestInfo (%v)", r.Method, r.URL.Path, r.URL.RawQuery, err)
	}
	want := fromRequestInfo(info, "u", []string{"g"})
	if describeAttrs(got) != describeAttrs(want) || got.Path != want.Path {
		t.Errorf("%q %q ?%q:\n got %q\nwant %q (apiserver, error %v)", r.Method, r.URL.Path, r.URL.RawQuery, describeAttrs(got), describeAttrs(want), err)
	}
	return got
}

// A request generator for the differential test: the shapes of resource
// paths with every part optional or odd, and queries made of the list
// options that matter, valid and not, mixed with noise.
var (
	rqMethods   = []string{"GET", "GET", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "DELETE", "OPTIONS", "get", "BREW", ""}
	rqPrefixes  = []string{"/api", "/api", "/apis", "/apis", "/apis", "", "/apiz", "/API", "api", "//api"}
	rqGroups    = []string{"apps", "batch", "rbac.authorization.k8s.io", "", "namespaces", "watch"}
	rqVersions  = []string{"v1", "v1", "v1beta1", "", "watch"}
	rqVerbs     = []string{"", "", "", "", "watch", "proxy"}
	rqNS        = []string{"default", "kube-system", "", "status", "namespaces"}
	rqResources = []string{"pods", "pods", "deployments", "namespaces", "status", "finalize", "watch", "proxy", ""}
	rqNames     = []string{"web", "web-0", "", ".", "..", "namespaces", "status"}
	rqSubs      = []string{"log", "status", "finalize", "scale", "proxy", ""}
	rqExtras    = []string{"x", "x/y", "", "/"}
	rqPaths     = []string{"/healthz", "/healthz/etcd", "/livez", "/readyz", "/metrics", "/version", "/openapi/v2",
		"/", "", "/api", "/apis", "/apis/apps", "/api/v1", "/apis/apps/v1", "/logs/kube-apiserver.log", "/.well-known/openid-configuration"}
	rqQueryParts = []string{
		"watch=true", "watch=1", "watch=0", "watch=false", "watch=FALSE", "watch=", "watch", "watch=no", "w%61tch=1",
		"watch=fal%C5%BFe", "watch=%zz", "watch=1;x",
		"fieldSelector=metadata.name%3Dweb", "fieldSelector=metadata.name%3D%3Dweb", "fieldSelector=metadata.name!%3Dweb",
		"fieldSelector=status.phase%3DRunning,metadata.name%3Dweb", "fieldSelector=metadata.name%3Db,metadata.name%3Da",
		"fieldSelector=metadata.name%3Dw%5C,eb", "fieldSelector=metadata.name%3Dw,eb", "fieldSelector=metadata.name%3Da/b",
		"fieldSelector=metadata.name%3D..", "fieldSelector=metadata.name%3D", "fieldSelector=spec.nodeName%3Dn1",
		"fieldSelector=metadata.name", "fieldSelector=", "fieldSelector=metadata.name%3Dweb%5C", "fieldSelector=metadata.name=a%25b",
		"fieldSelector=metadata.name=%FF%5C,", "field%53elector=metadata.name%3Dx",
		"labelSelector=app%3Dweb", "labelSelector=app%20in%20(a,b)", "labelSelector=app%20in", "labelSelector=!app",
		"labelSelector=%3D%3D", "labelSelector=",
		"limit=500", "limit=ten", "limit=", "limit=-1", "timeoutSeconds=30", "timeoutSeconds=", "timeoutSeconds=1.5",
		"resourceVersion=10", "continue=abc", "allowWatchBookmarks=true", "sendInitialEvents=true", "pretty=1",
		"", ";", "%", "=x",
	}
)

// genHTTPRequest returns a random request: mostly resource paths built from
// the parts above, sometimes non-resource paths or random segments.
func genHTTPRequest(rng *rand.Rand) *http.Request {
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	chance := func(p float64) bool { return rng.Float64() < p }
	var path string
	switch {
	case chance(0.15):
		path = pick(rqPaths)
	case chance(0.05):
		var segs []string
		for range rng.IntN(8) {
			segs = append(segs, pick([][]string{rqResources, rqNames, rqVersions, rqGroups, {"api", "apis"}}[rng.IntN(5)]))
		}
		path = "/" + strings.Join(segs, "/")
	default:
		var b strings.Builder
		b.WriteString(pick(rqPrefixes))
		if !strings.HasSuffix(b.String(), "api") || chance(0.1) {
			b.WriteString("/" + pick(rqGroups))
		}
		b.WriteString("/" + pick(rqVersions))
		if v := pick(rqVerbs); v != "" {
			b.WriteString("/" + v)
		}
		if chance(0.5) {
			b.WriteString("/namespaces")
			if chance(0.9) {
				b.WriteString("/" + pick(rqNS))
			}
		}
		if chance(0.9) {
			b.WriteString("/" + pick(rqResources))
			if chance(0.6) {
				b.WriteString("/" + pick(rqNames))
				if chance(0.4) {
					b.WriteString("/" + pick(rqSubs))
					if chance(0.2) {
						b.WriteString("/" + pick(rqExtras))
					}
				}
			}
		}
		if chance(0.1) {
			b.WriteString("/")
		}
		path = b.String()
	}
	var query []string
	for range rng.IntN(4) {
		query = append(query, pick(rqQueryParts))
	}
	return &http.Request{Method: pick(rqMethods), URL: &url.URL{Path: path, RawQuery: strings.Join(query, "&")}}
}

// differentialCases is how many generated requests
// TestAttributesAgainstAPIServer compares.
const differentialCases = 20000

// TestAttributesAgainstAPIServer compares AttributesFromRequest with
// apiserver on generated requests, and checks that the generator reaches
// every verb and both kinds of request.
func TestAttributesAgainstAPIServer(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 26))
	seen := map[string]int{}
	for range differentialCases {
		a := checkAgainstAPIServer(t, kubernetes, apiserverKubernetes, genHTTPRequest(rng))
		seen[a.Verb]++
		if a.IsResourceRequest && a.Name != "" && a.Verb == "list" {
			seen["list with a name"]++
		}
		if !a.IsResourceRequest {
			seen["nonresource"]++
		}
		if t.Failed() {
			return
		}
	}
	for _, v := range []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection",
		"proxy", "", "options", "brew", "list with a name", "nonresource"} {
		if seen[v] == 0 {
			t.Errorf("no generated request has verb %q", v)
		}
	}
	t.Logf("verbs of %d requests: %v", differentialCases, seen)
}

// FuzzAttributes checks that AttributesFromRequest never panics and agrees
// with apiserver on any method, path and query.
func FuzzAttributes(f *testing.F) {
	for _, tt := range requestTests {
		path, query, _ := strings.Cut(tt.target, "?")
		f.Add(tt.method, path, query)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		r := genHTTPRequest(rng)
		f.Add(r.Method, r.URL.Path, r.URL.RawQuery)
	}
	f.Fuzz(func(t *testing.T, method, path, query string) {
		r := &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}}
		checkAgainstAPIServer(t, kubernetes, apiserverKubernetes, r)
	})
}
