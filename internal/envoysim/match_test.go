package envoysim

import (
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func TestPathSpecifiers(t *testing.T) {
	tests := []struct {
		name  string
		match *routev3.RouteMatch
		path  string
		want  bool
	}{
		// prefix: case-sensitive by default, blind to segment boundaries.
		{"prefix itself", prefix("/v2"), "/v2", true},
		{"prefix continues the segment", prefix("/v2"), "/v2x", true},
		{"prefix shorter path", prefix("/v2"), "/v", false},
		{"prefix other case", prefix("/v2"), "/V2", false},
		{"prefix case-insensitive", caseInsensitive(prefix("/API")), "/api/users", true},
		{"prefix empty matches all", prefix(""), "/anything", true},
		{"prefix never sees the query", prefix("/a?b"), "/a?b=1", false},
		{"prefix never sees the fragment", prefix("/a#x"), "/a#x", false},

		// path: the whole path, without query or fragment.
		{"path equal", exactPath("/v2"), "/v2", true},
		{"path with query", exactPath("/v2"), "/v2?q=1", true},
		{"path with fragment", exactPath("/v2"), "/v2#top", true},
		{"path trailing slash", exactPath("/v2"), "/v2/", false},
		{"path case-insensitive", caseInsensitive(exactPath("/v2")), "/V2", true},

		// safe_regex: RE2 must match the whole path; case_sensitive does not apply.
		{"regex full match", regexPath("/v[0-9]+"), "/v12", true},
		{"regex match is not a prefix match", regexPath("/v[0-9]+"), "/v12/x", false},
		{"regex match is not a search", regexPath("/v[0-9]+"), "/xv12", false},
		{"regex ignores query", regexPath("/v[0-9]+"), "/v12?page=2", true},
		{"regex alternation stays anchored", regexPath("/a|/b"), "/a/c", false},
		{"regex ignores case_sensitive", caseInsensitive(regexPath("/abc")), "/ABC", false},
		{"regex invalid matches nothing", regexPath("("), "/(", false},
		{"regex unbalanced group is not spliced", regexPath(".*)|(/x"), "/y", false},

		// path_separated_prefix: the prefix, then the end of the path or a '/'.
		{"separated equal", separatedPrefix("/v2"), "/v2", true},
		{"separated trailing slash", separatedPrefix("/v2"), "/v2/", true},
		{"separated sub-path", separatedPrefix("/v2"), "/v2/x", true},
		{"separated longer segment", separatedPrefix("/v2"), "/v2x", false},
		{"separated query", separatedPrefix("/v2"), "/v2?q", true},
		{"separated fragment", separatedPrefix("/v2"), "/v2#f", true},
		{"separated shorter path", separatedPrefix("/v2"), "/v", false},
		{"separated other case", separatedPrefix("/v2"), "/V2/x", false},
		{"separated case-insensitive", caseInsensitive(separatedPrefix("/v2")), "/V2/x", true},

		// A RouteMatch the model cannot run never matches.
		{"no specifier", &routev3.RouteMatch{}, "/", false},
		{"nil match", nil, "/", false},
		{"path_match_policy", &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_PathMatchPolicy{
			PathMatchPolicy: &corev3.TypedExtensionConfig{Name: "uri_template"}}}, "/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(get("h", tt.path), "http")
			if got := matches(tt.match, r, false); got != tt.want {
				t.Errorf("match %v against %q = %v, want %v", tt.match, tt.path, got, tt.want)
			}
		})
	}
}

func TestIgnorePathParameters(t *testing.T) {
	tests := []struct {
		match  *routev3.RouteMatch
		path   string
		ignore bool
		want   bool
	}{
		{exactPath("/v2"), "/v2;jsessionid=1", false, false},
		{exactPath("/v2"), "/v2;jsessionid=1", true, true},
		{separatedPrefix("/v2"), "/v2;x/y", true, true},
		{exactPath("/v2"), "/v2?a=1;b", true, true},
	}
	for _, tt := range tests {
		r := newRequest(get("h", tt.path), "http")
		if got := matches(tt.match, r, tt.ignore); got != tt.want {
			t.Errorf("match %v against %q (ignore=%v) = %v, want %v", tt.match, tt.path, tt.ignore, got, tt.want)
		}
	}
}

func TestOtherCriteria(t *testing.T) {
	with := func(f func(m *routev3.RouteMatch)) *routev3.RouteMatch {
		m := prefix("/")
		f(m)
		return m
	}
	grpc := func(m *routev3.RouteMatch) { m.Grpc = &routev3.RouteMatch_GrpcRouteMatchOptions{} }
	tls := func(presented, validated *wrapperspb.BoolValue) func(m *routev3.RouteMatch) {
		return func(m *routev3.RouteMatch) {
			m.TlsContext = &routev3.RouteMatch_TlsContextMatchOptions{Presented: presented, Validated: validated}
		}
	}
	tests := []struct {
		name  string
		match *routev3.RouteMatch
		req   Request
		want  bool
	}{
		// runtime_fraction: the default fraction, drawn with random value 0.
		{"runtime 0%", with(func(m *routev3.RouteMatch) { m.RuntimeFraction = fraction(0) }), get("h", "/"), false},
		{"runtime 1%", with(func(m *routev3.RouteMatch) { m.RuntimeFraction = fraction(1) }), get("h", "/"), true},
		{"runtime without default", with(func(m *routev3.RouteMatch) {
			m.RuntimeFraction = &corev3.RuntimeFractionalPercent{RuntimeKey: "k"}
		}), get("h", "/"), false},

		// grpc: content-type application/grpc or application/grpc+something.
		{"grpc", with(grpc), get("h", "/", "Content-Type", "application/grpc"), true},
		{"grpc+proto", with(grpc), get("h", "/", "content-type", "application/grpc+proto"), true},
		{"grpc-web is not grpc", with(grpc), get("h", "/", "content-type", "application/grpc-web"), false},
		// Envoy joins a repeated Content-Type into "application/grpc,text/plain".
		{"content-type sent twice is not grpc", with(grpc), get("h", "/", "content-type", "application/grpc", "content-type", "text/plain"), false},
		{"no content-type", with(grpc), get("h", "/"), false},

		// tls_context: the simulated client presents no certificate.
		{"presented required", with(tls(wrapperspb.Bool(true), nil)), get("h", "/"), false},
		{"presented refused", with(tls(wrapperspb.Bool(false), nil)), get("h", "/"), true},
		{"validated required", with(tls(nil, wrapperspb.Bool(true))), get("h", "/"), false},
		{"tls unconstrained", with(tls(nil, nil)), get("h", "/"), true},

		// dynamic_metadata and filter_state cannot be satisfied.
		{"dynamic metadata", with(func(m *routev3.RouteMatch) {
			m.DynamicMetadata = []*matcherv3.MetadataMatcher{{Filter: "f"}}
		}), get("h", "/"), false},
		{"filter state", with(func(m *routev3.RouteMatch) {
			m.FilterState = []*matcherv3.FilterStateMatcher{{Key: "k"}}
		}), get("h", "/"), false},

		// connect_matcher: the CONNECT method, whatever the path.
		{"connect", &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_ConnectMatcher_{}},
			Request{Authority: "h:443", Method: "CONNECT"}, true},
		{"connect needs CONNECT", &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_ConnectMatcher_{}},
			get("h", "/"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matches(tt.match, newRequest(tt.req, "http"), false); got != tt.want {
				t.Errorf("matches = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestUnknownExtensionsNeverPanic feeds typed extensions the model cannot run.
func TestUnknownExtensionsNeverPanic(t *testing.T) {
	cfg, _ := anypb.New(wrapperspb.String("x"))
	m := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_PathMatchPolicy{
		PathMatchPolicy: &corev3.TypedExtensionConfig{Name: "x", TypedConfig: cfg}}}
	res := Route(table(vhost("v", []string{"*"}, toCluster("r", m, "c"))), "http", get("h", "/"))
	if res.RouteProto != nil {
		t.Errorf("route %q matched a path_match_policy the model cannot run", res.Route)
	}
}

// matches reports whether m takes r: routeMiss found nothing.
func matches(m *routev3.RouteMatch, r *request, ignorePathParameters bool) bool {
	return routeMiss(m, r, ignorePathParameters).Criterion == Matched
}
