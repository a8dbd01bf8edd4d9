package render

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/xdsgen"
)

// sharedRoutes are route configurations whose virtual hosts point at the
// same few route messages, as xdsgen's do: in short lists, in lists of
// splitAt or more (rendered whole by a worker) and of bigAt or more
// (streamed, rendered item by item), first and later in their lists, with a header value long enough that YAML
// folds it, so that its text depends on the column it starts at.
func sharedRoutes() ([]*routev3.RouteConfiguration, []*routev3.Route) {
	long := strings.Repeat("folded at column eighty ", 6)
	shared := make([]*routev3.Route, 5)
	for i := range shared {
		shared[i] = &routev3.Route{
			Name: fmt.Sprint("shared-", i),
			Match: &routev3.RouteMatch{
				PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: fmt.Sprint("/s", i)},
				Headers:       []*routev3.HeaderMatcher{{Name: "x-long", HeaderMatchSpecifier: &routev3.HeaderMatcher_PresentMatch{PresentMatch: true}}},
			},
			Action:                 &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 200}},
			RequestHeadersToRemove: []string{long},
		}
	}
	var configs []*routev3.RouteConfiguration
	for c, hosts := range []int{3, splitAt + 2} {
		rc := &routev3.RouteConfiguration{Name: fmt.Sprint("rc-", c)}
		for h := range hosts {
			vh := &routev3.VirtualHost{Name: fmt.Sprint("vh-", h), Domains: []string{fmt.Sprintf("h%d.example.com", h)}}
			n := []int{3, splitAt + 1, bigAt + 1}[h%3] // short, long and big lists in turn
			for i := range n {
				if i%7 == 0 {
					vh.Routes = append(vh.Routes, shared[(h+i)%len(shared)])
					continue
				}
				vh.Routes = append(vh.Routes, &routev3.Route{
					Name:   fmt.Sprint("own-", h, "-", i),
					Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Path{Path: fmt.Sprint("/own/", i)}},
					Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 204}},
				})
			}
			rc.VirtualHosts = append(rc.VirtualHosts, vh)
		}
		configs = append(configs, rc)
	}
	return configs, shared
}

// TestMemoMatchesRendering: a document whose routes are shared messages,
// their text kept and copied (memo.go), is byte for byte the document of
// the same routes as distinct messages, each rendered where it is; and
// the memo kept a text for each shared route (one place: virtual hosts'
// routes are all at one column) and each distinct one.
func TestMemoMatchesRendering(t *testing.T) {
	configs, _ := sharedRoutes()
	distinct := make([]*routev3.RouteConfiguration, len(configs))
	for i, rc := range configs {
		distinct[i] = proto.Clone(rc).(*routev3.RouteConfiguration)
	}
	for _, f := range []Format{YAML, JSON} {
		got, err := Document(&sesame.Result{XDS: &xdsgen.Resources{Routes: configs}}, f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Document(&sesame.Result{XDS: &xdsgen.Resources{Routes: distinct}}, f)
		if err != nil {
			t.Fatal(err)
		}
		if d := firstDifference(got, want); d != "" {
			t.Fatalf("%s: %s", f, d)
		}
	}
}

// TestMemoKeepsEachSharedRouteOnce: the route configurations, written as
// a list that is not a section's resources (so that the memo is kept
// after it), leave one entry for each route message, its virtual hosts'
// routes being all at one place, and a text for each one in more than one
// place; a shared route's text is in the document as many times as the
// route is.
func TestMemoKeepsEachSharedRouteOnce(t *testing.T) {
	configs, shared := sharedRoutes()
	uses := map[unsafe.Pointer]int{}
	for _, rc := range configs {
		for _, vh := range rc.GetVirtualHosts() {
			for _, r := range vh.GetRoutes() {
				uses[unsafe.Pointer(r)]++
			}
		}
	}
	list := &lazyList{n: len(configs), item: func(i int) (any, error) { return configs[i], nil }}
	for _, f := range []Format{YAML, JSON} {
		r := &renderer{format: f}
		var buf bytes.Buffer
		bw := bufio.NewWriter(&buf)
		var e encoder = &jsonWriter{w: bw, r: r, depth: 1}
		if f == YAML {
			e = &yamlWriter{w: bw, r: r}
		}
		if err := writeValue(e, list); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		if got := len(r.memo.texts); got != len(uses) {
			t.Errorf("%s: %d entries, want one for each of %d route messages", f, got, len(uses))
		}
		for k, text := range r.memo.texts {
			if (text.text != nil) != (uses[k.m] > 1) {
				t.Errorf("%s: a route in %d places has a text kept: %t", f, uses[k.m], text.text != nil)
			}
			for _, s := range shared {
				if k.m != unsafe.Pointer(s) {
					continue
				}
				if n := strings.Count(buf.String(), string(text.text)); n != uses[k.m] {
					t.Errorf("%s: route %s, in %d places, has its text %d times", f, s.GetName(), uses[k.m], n)
				}
			}
		}
	}
}

// FuzzMemoMatchesRendering: route configurations whose virtual hosts share
// route messages, in places and numbers the input draws, with header
// values it gives (so that YAML quotes, folds or blocks them), render
// byte for byte as the same routes all distinct, in both formats.
func FuzzMemoMatchesRendering(f *testing.F) {
	f.Add([]byte{3, 1, 2, 0, 5, 70}, "x-long", strings.Repeat("folded at column eighty ", 5))
	f.Add([]byte{1, 255, 0}, "a: b", "line one\nline two")
	f.Add([]byte{9, 4, 4, 4, 4}, "", "'quoted' #")
	f.Fuzz(func(t *testing.T, plan []byte, name, value string) {
		if len(plan) == 0 || len(plan) > 12 {
			return
		}
		shared := make([]*routev3.Route, 1+int(plan[0])%4)
		for i := range shared {
			shared[i] = &routev3.Route{
				Name:                   fmt.Sprint("shared-", i),
				Match:                  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: fmt.Sprint("/", i)}},
				Action:                 &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 200}},
				RequestHeadersToRemove: []string{name, value},
			}
		}
		rc := &routev3.RouteConfiguration{Name: "rc"}
		for h, b := range plan[1:] {
			vh := &routev3.VirtualHost{Name: fmt.Sprint("vh-", h), Domains: []string{value}}
			// b says how many routes (up to bigAt+8) and which are shared.
			n := int(b) % (bigAt + 8)
			for i := range n {
				if (i+int(b))%3 == 0 {
					vh.Routes = append(vh.Routes, shared[(i+h)%len(shared)])
				} else {
					vh.Routes = append(vh.Routes, &routev3.Route{
						Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Path{Path: fmt.Sprint("/own/", i)}},
						Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 204}},
					})
				}
			}
			rc.VirtualHosts = append(rc.VirtualHosts, vh)
		}
		distinct := proto.Clone(rc).(*routev3.RouteConfiguration)
		for _, format := range []Format{YAML, JSON} {
			got, err := Document(&sesame.Result{XDS: &xdsgen.Resources{Routes: []*routev3.RouteConfiguration{rc, rc}}}, format)
			if err != nil {
				return // a value no writer takes (invalid UTF-8): the same for both
			}
			want, err := Document(&sesame.Result{XDS: &xdsgen.Resources{Routes: []*routev3.RouteConfiguration{distinct, proto.Clone(rc).(*routev3.RouteConfiguration)}}}, format)
			if err != nil {
				t.Fatalf("%s: the distinct routes do not render: %v", format, err)
			}
			if d := firstDifference(got, want); d != "" {
				t.Fatalf("%s: %s", format, d)
			}
		}
	})
}

// TestMemoKeysByPlace: one route written again and again at different
// places (depths in JSON; columns and indentation in YAML) through one
// renderer, whose memo keeps its text by place, is each time what a writer
// without a memo writes there.
func TestMemoKeysByPlace(t *testing.T) {
	_, shared := sharedRoutes()
	route := shared[0]
	for _, f := range []Format{YAML, JSON} {
		r := &renderer{format: f}
		for round := range 3 { // the memo keeps a text the second time
			for depth := 1; depth <= 3; depth++ {
				write := func(r *renderer) string {
					var buf bytes.Buffer
					bw := bufio.NewWriter(&buf)
					var e encoder = &jsonWriter{w: bw, r: r, depth: depth}
					if f == YAML {
						y := &yamlWriter{w: bw, r: r}
						y.startItem(2 * depth)
						e = y
					}
					if err := writeValue(e, route); err != nil {
						t.Fatal(err)
					}
					bw.Flush()
					return buf.String()
				}
				if got, want := write(r), write(nil); got != want {
					t.Fatalf("%s, round %d, depth %d:\n got %q\nwant %q", f, round, depth, got, want)
				}
			}
		}
	}
}
