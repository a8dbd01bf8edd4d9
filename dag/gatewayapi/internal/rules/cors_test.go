package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/checktest"
	"github.com/projectsesame/sesame/internal/re2"
)

// TestOriginMatches checks each kind of origin pattern against the origins
// a browser sends, with the spec's port rule (no port: the scheme's
// default) and wildcard rule ("*" takes any number of labels to the left).
func TestOriginMatches(t *testing.T) {
	tests := []struct {
		pattern      string
		allows       []string
		doesNotAllow []string
	}{
		// Exact origins: the default port may be written or not.
		{"https://www.foo.com", []string{"https://www.foo.com", "https://www.foo.com:443"},
			[]string{"HTTPS://WWW.FOO.COM", "http://www.foo.com", "https://www.foo.com:8443", "https://foo.com", "https://www.foo.com.evil.com", "https://xwww.foo.com"}},
		{"https://www.foo.com:443", []string{"https://www.foo.com", "https://www.foo.com:443"}, []string{"https://www.foo.com:4430"}},
		{"http://localhost:3000", []string{"http://localhost:3000"}, []string{"http://localhost", "http://localhost:30000", "https://localhost:3000"}},
		{"http://Example.COM", []string{"http://example.com", "http://example.com:80"}, []string{"http://example.com:8080"}},
		// Wildcards: at least one label, any number of them.
		{"https://*.bar.com", []string{"https://www.bar.com", "https://xpto.www.bar.com", "https://a-b.bar.com:443"},
			[]string{"https://WWW.BAR.COM", "https://bar.com", "https://foobar.com", "http://www.bar.com", "https://www.bar.com:8443", "https://www.bar.com.evil.com", "https://evil.com/.bar.com", "https://x.bar.comm"}},
		{"http://*.bar.com:8080", []string{"http://a.bar.com:8080"}, []string{"http://a.bar.com", "http://a.bar.com:80"}},
		{"https://*", []string{"https://a.com", "https://10.0.0.1", "https://[::1]", "https://[::1]:443"}, []string{"http://a.com", "https://a.com:8443", "https://[::1]:8443"}},
		{"http://*:8080", []string{"http://a.com:8080", "http://[::1]:8080"}, []string{"http://a.com", "http://a.com:80", "http://a.com:80:8080"}},
		// Everything.
		{"*", []string{"https://a.com", "http://b.c:1", "null"}, nil},
	}
	for _, tt := range tests {
		ms, problem := originMatches(tt.pattern)
		if problem != "" {
			t.Errorf("%s: %s", tt.pattern, problem)
			continue
		}
		allowed := func(origin string) bool {
			for _, m := range ms {
				switch {
				case m.Type == graph.MatchExact && m.Value == origin:
					return true
				case m.Type == graph.MatchRegularExpression:
					re, err := re2.CompileFull(m.Value)
					if err != nil {
						t.Fatalf("%s: %v", tt.pattern, err)
					}
					if re.MatchString(origin) {
						return true
					}
				}
			}
			return false
		}
		for _, o := range tt.allows {
			if !allowed(o) {
				t.Errorf("%s does not allow %s (%v)", tt.pattern, o, ms)
			}
		}
		for _, o := range tt.doesNotAllow {
			if allowed(o) {
				t.Errorf("%s allows %s (%v)", tt.pattern, o, ms)
			}
		}
	}
}

func TestCORSFilter(t *testing.T) {
	type filter = gatewayv1.HTTPCORSFilter
	origins := func(o ...gatewayv1.CORSOrigin) []gatewayv1.CORSOrigin { return o }
	methods := func(m ...gatewayv1.HTTPMethodWithWildcard) []gatewayv1.HTTPMethodWithWildcard { return m }
	headers := func(h ...gatewayv1.HTTPHeaderName) []gatewayv1.HTTPHeaderName { return h }
	long := gatewayv1.CORSOrigin("https://*." + strings.Repeat("abcdefghi.", 10) + "com")
	tests := []struct {
		name    string
		f       *filter
		want    string // describe's summary
		problem string // the field at fault and its problem; "" when valid
	}{
		// Valid filters; maxAge defaults to 5.
		{"empty", &filter{}, "origins[] creds=false methods[] headers[] expose[] maxAge=5", ""},
		{"conformance", &filter{AllowOrigins: origins("https://www.foo.com", "https://*.bar.com"), AllowMethods: methods("GET", "OPTIONS"),
			AllowHeaders: headers("x-header-1", "x-header-2"), ExposeHeaders: headers("x-header-3", "x-header-4"), AllowCredentials: new(true), MaxAge: 3600},
			`origins[{origin Exact https://www.foo.com} {origin Exact https://www.foo.com:443} {origin RegularExpression https://[-.0-9_a-z]+\.bar\.com(?::443)?}] creds=true methods[GET OPTIONS] headers[x-header-1 x-header-2] expose[x-header-3 x-header-4] maxAge=3600`, ""},
		{"wildcards", &filter{AllowOrigins: origins("*"), AllowMethods: methods("*"), AllowHeaders: headers("*"), AllowCredentials: new(true)},
			"origins[{origin RegularExpression .*}] creds=true methods[*] headers[*] expose[] maxAge=5", ""},
		{"expose * without credentials", &filter{ExposeHeaders: headers("*", "x-a")}, "origins[] creds=false methods[] headers[] expose[* x-a] maxAge=5", ""},
		{"the same origin twice after normalising", &filter{AllowOrigins: origins("https://a.com", "https://A.com:443")},
			"origins[{origin Exact https://a.com} {origin Exact https://a.com:443}] creds=false methods[] headers[] expose[] maxAge=5", ""},

		// Origins that are not patterns.
		{"path", &filter{AllowOrigins: origins("https://a.com", "https://b.com/app")}, "", `cors.allowOrigins[1]: "https://b.com/app" is not an origin: an origin is scheme://host[:port], without a path`},
		{"other scheme", &filter{AllowOrigins: origins("ftp://a.com")}, "", `cors.allowOrigins[0]: "ftp://a.com" is not an origin: an origin is http:// or https://`},
		{"no scheme", &filter{AllowOrigins: origins("a.com")}, "", `cors.allowOrigins[0]: "a.com" is not an origin`},
		{"upper-case scheme", &filter{AllowOrigins: origins("HTTPS://a.com")}, "", `cors.allowOrigins[0]: "HTTPS://a.com" is not an origin`},
		{"wildcard inside", &filter{AllowOrigins: origins("https://a.*.com")}, "", `cors.allowOrigins[0]: "https://a.*.com" is not an origin`},
		{"wildcard in a label", &filter{AllowOrigins: origins("https://*a.com")}, "", `cors.allowOrigins[0]: "https://*a.com" is not an origin`},
		{"port 0", &filter{AllowOrigins: origins("https://a.com:0")}, "", `the port "0" is not a number from 1 to 65535`},
		{"port too large", &filter{AllowOrigins: origins("https://a.com:65536")}, "", `the port "65536"`},
		{"port with a sign", &filter{AllowOrigins: origins("https://a.com:+80")}, "", `the port "+80"`},
		{"user", &filter{AllowOrigins: origins("https://u@a.com")}, "", `"https://u@a.com" is not an origin: an origin has no user information`},
		{"empty label", &filter{AllowOrigins: origins("https://a..com")}, "", `"https://a..com" is not an origin: the host is "*", or DNS labels`},
		{"underscore", &filter{AllowOrigins: origins("https://a_b.com")}, "", `"https://a_b.com" is not an origin: the host is`},
		{"query", &filter{AllowOrigins: origins("https://a.com?x")}, "", `"https://a.com?x" is not an origin: an origin is scheme://host[:port]`},
		{"* with others", &filter{AllowOrigins: origins("https://a.com", "*")}, "", `cors.allowOrigins[1]: "*" allows every value and cannot be given with others`},
		{"origin twice", &filter{AllowOrigins: origins("https://a.com", "https://a.com")}, "", `cors.allowOrigins[1]: "https://a.com" is allowOrigins[0] already`},
		{"wildcard too long for Envoy", &filter{AllowOrigins: origins(long)}, "", "cors.allowOrigins[0]: " + fmt.Sprintf("%q is too long for a wildcard origin", long)},

		// Methods: the API's nine and "*", case-sensitive.
		{"lower-case method", &filter{AllowMethods: methods("GET", "post")}, "", `cors.allowMethods[1]: "post" is not one of GET, HEAD`},
		{"unknown method", &filter{AllowMethods: methods("PURGE")}, "", `cors.allowMethods[0]: "PURGE" is not one of`},
		{"* with methods", &filter{AllowMethods: methods("*", "GET")}, "", `cors.allowMethods[0]: "*" allows every value`},
		{"method twice", &filter{AllowMethods: methods("GET", "GET")}, "", `cors.allowMethods[1]: "GET" is allowMethods[0] already`},

		// Headers.
		{"bad header name", &filter{AllowHeaders: headers("x a")}, "", `cors.allowHeaders[0]: "x a" is not a header name`},
		{"* with headers", &filter{AllowHeaders: headers("x-a", "*")}, "", `cors.allowHeaders[1]: "*" allows every value`},
		{"expose header twice", &filter{ExposeHeaders: headers("x-a", "x-a")}, "", `cors.exposeHeaders[1]: "x-a" is exposeHeaders[0] already`},
		{"expose * with credentials", &filter{ExposeHeaders: headers("x-a", "*"), AllowCredentials: new(true)}, "", `cors.exposeHeaders[1]: "*" cannot be used with allowCredentials`},

		// Max age.
		{"negative max age", &filter{MaxAge: -1}, "", "cors.maxAge: -1 is not a number of seconds"},
		{"missing", nil, "", "cors is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, field, problem := cors(tt.f)
			if field != "" {
				problem = field + ": " + problem
			}
			if checktest.ProblemChecked(t, problem, tt.problem) {
				return
			}
			if got := describeCORS(p); got != tt.want {
				t.Errorf("policy = %s\nwant %s", got, tt.want)
			}
		})
	}
}

func describeCORS(p *graph.CORSPolicy) string {
	return fmt.Sprintf("origins%v creds=%v methods%v headers%v expose%v maxAge=%d",
		p.AllowOrigins, p.AllowCredentials, p.AllowMethods, p.AllowHeaders, p.ExposeHeaders, p.MaxAgeSeconds)
}

// TestCORSFieldPath checks that the rule's problem names the field, as the
// PartiallyInvalid condition shows it.
func TestCORSFieldPath(t *testing.T) {
	b := &Compiler{Index: checktest.NewIndex(nil, nil, nil)}
	filters := []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterCORS, CORS: &gatewayv1.HTTPCORSFilter{AllowOrigins: []gatewayv1.CORSOrigin{"https://a.com", "https://b.com/x"}}}}
	_, problem := b.compileFilters(backendOrigin{kind: "HTTPRoute", namespace: "ns"}, filters, "spec.rules[2]", &Compiled{ResolvedRefs: true})
	if want := `spec.rules[2].filters[0].cors.allowOrigins[1]: "https://b.com/x" is not an origin`; !strings.HasPrefix(problem, want) {
		t.Errorf("problem = %q, want it to start with %q", problem, want)
	}
}

// FuzzOriginMatches checks, for any pattern, that a valid one gives
// expressions Envoy accepts (RE2 within its limit), and that it allows the
// origin a browser would send for a host it names: scheme and host in
// lower case, "*" replaced by a label, the port as a number, left out when
// it is the default.
func FuzzOriginMatches(f *testing.F) {
	for _, s := range []string{"*", "https://www.foo.com", "http://a.b:8080", "https://*.bar.com", "https://*", "http://*:1", "https://A.com:443", "ftp://x", "https://a/b", "https://*.*.a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		ms, problem := originMatches(pattern)
		if problem != "" {
			return
		}
		var res []*regexp.Regexp
		for _, m := range ms {
			if m.Type != graph.MatchRegularExpression {
				continue
			}
			if n, err := re2.Size(m.Value); err != nil || n > re2.EnvoyLimit {
				t.Fatalf("%q: %q: size %d, %v", pattern, m.Value, n, err)
			}
			re, err := re2.CompileFull(m.Value)
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, re)
		}
		if pattern == "*" {
			return
		}
		scheme, host, port, _ := parseOrigin(pattern)
		origin := scheme + "://" + strings.Replace(host, "*", "x", 1)
		if port != schemePort(scheme) {
			origin += fmt.Sprintf(":%d", port)
		}
		allowed := slices.ContainsFunc(ms, func(m graph.StringMatch) bool { return m.Type == graph.MatchExact && m.Value == origin }) ||
			slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(origin) })
		if !allowed {
			t.Errorf("%q does not allow %q: %v", pattern, origin, ms)
		}
	})
}
