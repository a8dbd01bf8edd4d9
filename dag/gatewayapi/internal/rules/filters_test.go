package rules

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/checktest"
)

func TestCompileFilters(t *testing.T) {
	header := func(name, value string) gatewayv1.HTTPHeader {
		return gatewayv1.HTTPHeader{Name: gatewayv1.HTTPHeaderName(name), Value: value}
	}
	reqHeaders := func(f gatewayv1.HTTPHeaderFilter) gatewayv1.HTTPRouteFilter {
		return gatewayv1.HTTPRouteFilter{Type: gatewayv1.HTTPRouteFilterRequestHeaderModifier, RequestHeaderModifier: &f}
	}
	respHeaders := func(f gatewayv1.HTTPHeaderFilter) gatewayv1.HTTPRouteFilter {
		return gatewayv1.HTTPRouteFilter{Type: gatewayv1.HTTPRouteFilterResponseHeaderModifier, ResponseHeaderModifier: &f}
	}
	redirectTo := func(f gatewayv1.HTTPRequestRedirectFilter) gatewayv1.HTTPRouteFilter {
		return gatewayv1.HTTPRouteFilter{Type: gatewayv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &f}
	}
	rewriteTo := func(f gatewayv1.HTTPURLRewriteFilter) gatewayv1.HTTPRouteFilter {
		return gatewayv1.HTTPRouteFilter{Type: gatewayv1.HTTPRouteFilterURLRewrite, URLRewrite: &f}
	}
	mirrorTo := func(name string, percent *int32, fraction *gatewayv1.Fraction) gatewayv1.HTTPRouteFilter {
		port := gatewayv1.PortNumber(80)
		return gatewayv1.HTTPRouteFilter{Type: gatewayv1.HTTPRouteFilterRequestMirror, RequestMirror: &gatewayv1.HTTPRequestMirrorFilter{
			BackendRef: gatewayv1.BackendObjectReference{Name: gatewayv1.ObjectName(name), Port: &port}, Percent: percent, Fraction: fraction}}
	}
	prefix := &gatewayv1.HTTPPathModifier{Type: gatewayv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: new("/new")}
	full := &gatewayv1.HTTPPathModifier{Type: gatewayv1.FullPathHTTPPathModifier, ReplaceFullPath: new("/index.html")}

	tests := []struct {
		name    string
		filters []gatewayv1.HTTPRouteFilter
		want    string // a summary of the compiled filters
		problem string // substring; "" when valid
		refs    string // substring of the ResolvedRefs problems; "" when none
	}{
		// Header modifiers: names lower-cased, unique per list.
		{"set add remove", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Set: []gatewayv1.HTTPHeader{header("X-A", "1")}, Add: []gatewayv1.HTTPHeader{header("x-b", "2")}, Remove: []string{"X-C"}})},
			"req{[{x-a 1}] [{x-b 2}] [x-c]}", "", ""},
		{"header named twice", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Set: []gatewayv1.HTTPHeader{header("X-A", "1"), header("x-a", "2")}})}, "", `set[1]: header "x-a" is named in set already`, ""},
		// "Only one action for a given header name is permitted", across
		// set, add and remove too.
		{"header set and added", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Set: []gatewayv1.HTTPHeader{header("X-A", "1")}, Add: []gatewayv1.HTTPHeader{header("x-a", "2")}})}, "", `add[0]: header "x-a" is named in set already`, ""},
		{"header added and removed", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Add: []gatewayv1.HTTPHeader{header("x-a", "2")}, Remove: []string{"X-a"}})}, "", `remove[0]: header "X-a" is named in add already`, ""},
		// Values Envoy refuses would take the whole listener down: the
		// Rule is refused instead.
		{"header value with CR LF", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Set: []gatewayv1.HTTPHeader{header("x-a", "a\r\nx-injected: 1")}})}, "", `set[0]: the value "a\r\nx-injected: 1" holds the control character '\r' at byte 1`, ""},
		{"header value with NUL", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Add: []gatewayv1.HTTPHeader{header("x-a", "\x00")}})}, "", `add[0]: the value "\x00" holds the control character '\x00' at byte 0`, ""},
		// Envoy's connection manager writes Server, and Date when it is
		// missing, after every filter.
		{"response Server set", []gatewayv1.HTTPRouteFilter{respHeaders(gatewayv1.HTTPHeaderFilter{
			Set: []gatewayv1.HTTPHeader{header("Server", "my-app")}})}, "", "responseHeaderModifier.set[0]: Envoy writes the Server header", ""},
		{"response Server removed", []gatewayv1.HTTPRouteFilter{respHeaders(gatewayv1.HTTPHeaderFilter{
			Remove: []string{"server"}})}, "", "responseHeaderModifier.remove[0]: Envoy writes the Server header", ""},
		{"response Date removed", []gatewayv1.HTTPRouteFilter{respHeaders(gatewayv1.HTTPHeaderFilter{
			Remove: []string{"Date"}})}, "", "responseHeaderModifier.remove[0]: Envoy adds a Date header", ""},
		{"response Date set, request Server set", []gatewayv1.HTTPRouteFilter{
			respHeaders(gatewayv1.HTTPHeaderFilter{Set: []gatewayv1.HTTPHeader{header("Date", "x")}}),
			reqHeaders(gatewayv1.HTTPHeaderFilter{Set: []gatewayv1.HTTPHeader{header("Server", "y")}})},
			"req{[{server y}] [] []}", "", ""}, // the summary leaves response headers out
		{"header value too long", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Add: []gatewayv1.HTTPHeader{header("x-a", strings.Repeat("v", 16385))}})}, "", "is 16385 bytes long; Envoy takes at most 16384", ""},
		{"rewritten path with LF", []gatewayv1.HTTPRouteFilter{rewriteTo(gatewayv1.HTTPURLRewriteFilter{
			Path: &gatewayv1.HTTPPathModifier{Type: gatewayv1.FullPathHTTPPathModifier, ReplaceFullPath: new("/x\ny")}})}, "", `urlRewrite.path.replaceFullPath: the value "/x\ny" holds the control character '\n'`, ""},
		{"redirect prefix with CR", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{
			Path: &gatewayv1.HTTPPathModifier{Type: gatewayv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: new("/a\r")}})}, "", `requestRedirect.path.replacePrefixMatch: the value "/a\r" holds the control character '\r'`, ""},
		{"bad header name", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Add: []gatewayv1.HTTPHeader{header("a b", "1")}})}, "", `add[0]: "a b" is not a header name`, ""},
		// Host: Envoy refuses it in request_headers_to_add, so setting it
		// becomes a host rewrite; adding or removing it cannot be expressed.
		{"set Host becomes a rewrite", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{
			Set: []gatewayv1.HTTPHeader{header("Host", "internal.example.com"), header("x-a", "1")}})},
			"req{[{x-a 1}] [] []} rewrite{internal.example.com <nil>}", "", ""},
		{"add Host", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{Add: []gatewayv1.HTTPHeader{header("Host", "a")}})},
			"", "cannot add to or remove the Host header", ""},
		{"remove Host", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{Remove: []string{"host"}})},
			"", "cannot add to or remove the Host header", ""},
		{"Host and a rewritten hostname", []gatewayv1.HTTPRouteFilter{
			reqHeaders(gatewayv1.HTTPHeaderFilter{Set: []gatewayv1.HTTPHeader{header("Host", "a")}}),
			rewriteTo(gatewayv1.HTTPURLRewriteFilter{Hostname: new(gatewayv1.PreciseHostname("b"))})},
			"", "give one", ""},
		{"filter without its field", []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterRequestHeaderModifier}}, "", "requestHeaderModifier is missing", ""},
		{"filter twice", []gatewayv1.HTTPRouteFilter{reqHeaders(gatewayv1.HTTPHeaderFilter{}), reqHeaders(gatewayv1.HTTPHeaderFilter{})}, "", "appears twice", ""},

		// Redirects.
		{"redirect defaults to 302", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{Scheme: new("https")})},
			"redirect{https  0 <nil> 302}", "", ""},
		{"redirect everything", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{
			Hostname: new(gatewayv1.PreciseHostname("b.example.com")), Port: new(gatewayv1.PortNumber(8443)), StatusCode: new(301), Path: full})},
			"redirect{ b.example.com 8443 /index.html 301}", "", ""},
		{"redirect prefix takes the match's prefix", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{Path: prefix})},
			"redirect{  0 /api->/new 302}", "", ""},
		{"bad scheme", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{Scheme: new("ftp")})}, "", `scheme "ftp"`, ""},
		{"bad status", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{StatusCode: new(304)})}, "", "statusCode 304", ""},
		{"wildcard hostname", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{Hostname: new(gatewayv1.PreciseHostname("*.b.com"))})}, "", "requestRedirect.hostname", ""},
		{"redirect and rewrite", []gatewayv1.HTTPRouteFilter{redirectTo(gatewayv1.HTTPRequestRedirectFilter{}), rewriteTo(gatewayv1.HTTPURLRewriteFilter{})}, "", "IncompatibleFilters", ""},

		// Rewrites.
		{"rewrite host and prefix", []gatewayv1.HTTPRouteFilter{rewriteTo(gatewayv1.HTTPURLRewriteFilter{Hostname: new(gatewayv1.PreciseHostname("internal")), Path: prefix})},
			"rewrite{internal /api->/new}", "", ""},
		{"rewrite bad full path", []gatewayv1.HTTPRouteFilter{rewriteTo(gatewayv1.HTTPURLRewriteFilter{Path: &gatewayv1.HTTPPathModifier{Type: gatewayv1.FullPathHTTPPathModifier, ReplaceFullPath: new("x")}})}, "", "replaceFullPath must be a path", ""},

		// Mirrors: the fraction, and an unusable backend left out.
		{"mirror all", []gatewayv1.HTTPRouteFilter{mirrorTo("shadow", nil, nil)}, "mirror{shadow 100/100}", "", ""},
		{"mirror percent", []gatewayv1.HTTPRouteFilter{mirrorTo("shadow", new(int32(25)), nil)}, "mirror{shadow 25/100}", "", ""},
		{"mirror fraction", []gatewayv1.HTTPRouteFilter{mirrorTo("shadow", nil, &gatewayv1.Fraction{Numerator: 1, Denominator: new(int32(3))})}, "mirror{shadow 1/3}", "", ""},
		{"mirror bad fraction", []gatewayv1.HTTPRouteFilter{mirrorTo("shadow", nil, &gatewayv1.Fraction{Numerator: 4, Denominator: new(int32(3))})}, "", "not a fraction", ""},
		{"mirror missing service", []gatewayv1.HTTPRouteFilter{mirrorTo("nope", nil, nil)}, "", "", "requestMirror.backendRef: Service ns/nope not found"},

		// Other filters.
		{"extensionRef answers 500", []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterExtensionRef, ExtensionRef: &gatewayv1.LocalObjectReference{Group: "example.com", Kind: "Auth", Name: "x"}}},
			"unresolved", "", `extensionRef example.com/Auth "x"`},
		{"CORS", []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterCORS, CORS: &gatewayv1.HTTPCORSFilter{AllowOrigins: []gatewayv1.CORSOrigin{"*"}}}}, "cors{[{origin RegularExpression .*}]}", "", ""},
		{"CORS without its field", []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterCORS}}, "", "cors is missing", ""},
		{"ExternalAuth not yet", []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterExternalAuth}}, "", "filter ExternalAuth is not supported", ""},
		{"unknown type", []gatewayv1.HTTPRouteFilter{{Type: "Compress"}}, "", `filter type "Compress"`, ""},
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "shadow"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Compiler{Index: checktest.NewIndex([]*corev1.Service{svc}, nil, nil)}
			route := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"}}
			c := &Compiled{ResolvedRefs: true}
			cf, problem := b.compileFilters(backendOrigin{kind: "HTTPRoute", namespace: route.Namespace}, tt.filters, "spec.rules[0]", c)
			if problem == "" {
				var f graph.Filters
				f, problem = cf.forMatch(graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/api"}})
				cf.Filters = f
			}
			if checktest.ProblemChecked(t, problem, tt.problem) {
				return
			}
			if got := summarize(cf); got != tt.want {
				t.Errorf("filters = %s, want %s", got, tt.want)
			}
			if refs := strings.Join(c.RefProblems, " "); !strings.Contains(refs, tt.refs) || (tt.refs == "") != c.ResolvedRefs {
				t.Errorf("ResolvedRefs problems %q, want %q", refs, tt.refs)
			}
		})
	}
}

// summarize describes compiled filters briefly for table comparison.
func summarize(cf compiledFilters) string {
	var parts []string
	if m := cf.RequestHeaders; len(m.Set)+len(m.Add)+len(m.Remove) > 0 {
		parts = append(parts, fmt.Sprintf("req{%v %v %v}", m.Set, m.Add, m.Remove))
	}
	if r := cf.Redirect; r != nil {
		parts = append(parts, fmt.Sprintf("redirect{%s %s %d %s %d}", r.Scheme, r.Hostname, r.Port, describePath(r.Path), r.StatusCode))
	}
	if r := cf.Rewrite; r != nil {
		parts = append(parts, fmt.Sprintf("rewrite{%s %s}", r.Hostname, describePath(r.Path)))
	}
	for _, m := range cf.Mirrors {
		parts = append(parts, fmt.Sprintf("mirror{%s %d/%d}", m.Cluster.Service.Name, m.Numerator, m.Denominator))
	}
	if c := cf.CORS; c != nil {
		parts = append(parts, fmt.Sprintf("cors{%v}", c.AllowOrigins))
	}
	if cf.unresolved {
		parts = append(parts, "unresolved")
	}
	return strings.Join(parts, " ")
}

func describePath(p *graph.PathRewrite) string {
	switch {
	case p == nil:
		return "<nil>"
	case p.ReplacePrefix:
		return p.MatchedPrefix + "->" + p.Prefix
	}
	return p.Full
}

func TestForMatchNeedsPrefix(t *testing.T) {
	cf := compiledFilters{Filters: graph.Filters{Rewrite: &graph.Rewrite{Path: &graph.PathRewrite{Prefix: "/x", ReplacePrefix: true}}}}
	if _, problem := cf.forMatch(graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathExact, Value: "/a"}}); !strings.Contains(problem, "needs a PathPrefix match") {
		t.Errorf("problem = %q", problem)
	}
	// Completing one match leaves the shared filters untouched.
	a, _ := cf.forMatch(graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/a"}})
	b, _ := cf.forMatch(graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/b"}})
	if a.Rewrite.Path.MatchedPrefix != "/a" || b.Rewrite.Path.MatchedPrefix != "/b" || cf.Rewrite.Path.MatchedPrefix != "" {
		t.Errorf("prefixes %q %q %q", a.Rewrite.Path.MatchedPrefix, b.Rewrite.Path.MatchedPrefix, cf.Rewrite.Path.MatchedPrefix)
	}
}

func TestTimeouts(t *testing.T) {
	d := func(s string) *gatewayv1.Duration { v := gatewayv1.Duration(s); return &v }
	tests := []struct {
		name             string
		t                *gatewayv1.HTTPRouteTimeouts
		request, backend string
		problem          string
	}{
		{"none", nil, "<nil>", "<nil>", ""},
		{"both", &gatewayv1.HTTPRouteTimeouts{Request: d("10s"), BackendRequest: d("2s")}, "10s", "2s", ""},
		{"compound", &gatewayv1.HTTPRouteTimeouts{Request: d("1m30s")}, "1m30s", "<nil>", ""},
		{"zero disables", &gatewayv1.HTTPRouteTimeouts{Request: d("0s"), BackendRequest: d("5s")}, "0s", "5s", ""},
		{"backend exceeds request", &gatewayv1.HTTPRouteTimeouts{Request: d("1s"), BackendRequest: d("2s")}, "", "", "exceeds request"},
		{"not a duration", &gatewayv1.HTTPRouteTimeouts{Request: d("soon")}, "", "", `"soon" is not a duration`},
		{"Go duration the API refuses", &gatewayv1.HTTPRouteTimeouts{BackendRequest: d("1.5s")}, "", "", `timeouts.backendRequest: "1.5s" is not a duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, back, problem := timeouts(tt.t, "spec.rules[0]")
			if tt.problem != "" {
				if !strings.Contains(problem, tt.problem) {
					t.Errorf("problem = %q, want %q", problem, tt.problem)
				}
				return
			}
			got := fmt.Sprint(deref(req), " ", deref(back))
			if want := tt.request + " " + tt.backend; got != want || problem != "" {
				t.Errorf("timeouts = %s (%q), want %s", got, problem, want)
			}
		})
	}
}

// durationCases are GEP-2257 durations and strings that look like them:
// the table of TestParseDuration and the seeds of FuzzParseDuration.
var durationCases = []struct {
	in   string
	want time.Duration // -1 when the API refuses in
}{
	{"0s", 0}, {"10s", 10 * time.Second}, {"500ms", 500 * time.Millisecond},
	{"1h30m", 90 * time.Minute}, {"1h2m3s4ms", time.Hour + 2*time.Minute + 3*time.Second + 4*time.Millisecond},
	{"99999h", 99999 * time.Hour}, {"1s1s", 2 * time.Second}, {"1ms1h", time.Hour + time.Millisecond},
	{"99999ms99999ms99999ms99999ms", 4 * 99999 * time.Millisecond}, {"99999ms99999ms99999ms99999ms0", -1},
	{"", -1}, {"0", -1}, {"1.5s", -1}, {"100us", -1}, {"-1s", -1}, {"+1s", -1}, {"1d", -1},
	{"100000s", -1}, {"1h1h1h1h1h", -1}, {"s", -1}, {"1", -1}, {"1m 2s", -1}, {"1S", -1}, {"1mss", -1},
}

func TestParseDuration(t *testing.T) {
	for _, tt := range durationCases {
		got, ok := parseDuration(tt.in)
		if want := tt.want; ok != (want >= 0) || ok && got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", tt.in, got, ok, want)
		}
	}
}

// apiDuration is the API's pattern for Duration, which parseDuration
// implements without a regular expression.
var apiDuration = regexp.MustCompile(`^([0-9]{1,5}(h|m|s|ms)){1,4}$`)

// maxDurationLen is the longest string apiDuration matches.
const maxDurationLen = 4 * len("99999ms")

// FuzzParseDuration checks parseDuration against the API's pattern, and,
// for what it takes, against time.ParseDuration, of which GEP-2257 is a
// strict subset.
func FuzzParseDuration(f *testing.F) {
	for _, tt := range durationCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDuration(s)
		// The pattern admits at most 28 bytes (four groups of five digits
		// and "ms"); a longer input need only be refused. The oracles run
		// on short inputs only: on long ones the fuzzer found new coverage
		// inside regexp and time, kept inputs of kilobytes, and spent its
		// minimizing time (60 s each by default, executions not counted
		// meanwhile, golang/go#48820) shrinking them, which is how this
		// target stalled.
		if len(s) > maxDurationLen {
			if ok {
				t.Fatalf("parseDuration(%d bytes) = %v, ok; the API's pattern admits at most %d", len(s), got, maxDurationLen)
			}
			return
		}
		if ok != apiDuration.MatchString(s) {
			t.Fatalf("parseDuration(%q) ok = %v, the API's pattern says %v", s, ok, !ok)
		}
		if !ok {
			return
		}
		if want, err := time.ParseDuration(s); err != nil || got != want {
			t.Fatalf("parseDuration(%q) = %v; time.ParseDuration gives %v, %v", s, got, want, err)
		}
	})
}

func deref[T any](p *T) any {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// TestFiltersOrNilKeepsEveryField: orNil names the fields of Filters one by
// one to tell an empty value without reflection; a field added to Filters
// and not to orNil would be dropped from every route. Each field, set
// alone, must keep the filters.
func TestFiltersOrNilKeepsEveryField(t *testing.T) {
	if (&graph.Filters{}).OrNil() != nil {
		t.Fatal("empty filters are not nil")
	}
	typ := reflect.TypeOf(graph.Filters{})
	for i := range typ.NumField() {
		var f graph.Filters
		field := reflect.ValueOf(&f).Elem().Field(i)
		switch field.Kind() {
		case reflect.Pointer:
			field.Set(reflect.New(field.Type().Elem()))
		case reflect.Slice:
			field.Set(reflect.MakeSlice(field.Type(), 1, 1))
		case reflect.Struct: // a HeaderModifier: one of its lists set
			field.Field(0).Set(reflect.MakeSlice(field.Field(0).Type(), 1, 1))
		case reflect.String:
			field.SetString("x")
		default:
			t.Fatalf("field %s of kind %s: teach this test to set it", typ.Field(i).Name, field.Kind())
		}
		got := f.OrNil()
		if got == nil || !reflect.DeepEqual(*got, f) {
			t.Errorf("Filters with only %s set: orNil gave %v", typ.Field(i).Name, got)
		}
	}
}
