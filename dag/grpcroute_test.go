package dag

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/internal/re2"
)

// methodMatch is a GRPCRouteMatch with only a method match; service and
// method are left out when "".
func methodMatch(regex bool, service, method string) *gatewayv1.GRPCRouteMatch {
	typ := gatewayv1.GRPCMethodMatchExact
	if regex {
		typ = gatewayv1.GRPCMethodMatchRegularExpression
	}
	mm := &gatewayv1.GRPCMethodMatch{Type: &typ}
	if service != "" {
		mm.Service = &service
	}
	if method != "" {
		mm.Method = &method
	}
	return &gatewayv1.GRPCRouteMatch{Method: mm}
}

var grpcMatchTests = []struct {
	name            string
	regex           bool
	service, method string
	want            PathMatch
	problem         string // a part of the problem, when the match is refused
}{
	// Exact.
	{"service and method", false, "pkg.Svc", "Get", PathMatch{PathExact, "/pkg.Svc/Get"}, ""},
	{"service only", false, "pkg.Svc", "", PathMatch{PathPrefix, "/pkg.Svc"}, ""},
	{"method only", false, "", "Get", PathMatch{PathRegularExpression, "/[^/]+/Get"}, ""},
	{"neither", false, "", "", PathMatch{}, "give a service, a method or both"},
	{"not a service name", false, "pkg/Svc", "", PathMatch{}, "is not a gRPC service name"},
	{"not a method name", false, "", "Get.x", PathMatch{}, "is not a gRPC method name"},

	// RegularExpression: the parts as they stand in the path, a missing
	// one matching any name.
	{"regex service and method", true, `pkg\.v[0-9]+\.Svc`, "Get.*", PathMatch{PathRegularExpression, `/(pkg\.v[0-9]+\.Svc)/(Get.*)`}, ""},
	{"regex service only", true, `pkg\..*`, "", PathMatch{PathRegularExpression, `/(pkg\..*)/([^/]+)`}, ""},
	{"regex method only", true, "", "Get.*", PathMatch{PathRegularExpression, `/([^/]+)/(Get.*)`}, ""},
	{"anchors at the edges", true, `^pkg\.A$|^pkg\.B$`, `^Get$|^List$`, PathMatch{PathRegularExpression, `/(pkg\.A|pkg\.B)/(Get|List)`}, ""},
	{"anchor in the middle", true, "", `Get$List`, PathMatch{}, "anchors may only begin or end the expression"},
	{"invalid part", true, "(", "", PathMatch{}, "method.service: invalid RE2"},
	{"part too large", true, "", `[a-z_.]{40}`, PathMatch{}, "method.method: the regular expression"},
	// Each part is within Envoy's limit; the path they make is not.
	{"path too large, two parts", true, `[a-z_.]{12}`, `[A-Za-z_]{10}`, PathMatch{}, "together make a path expression Envoy would refuse"},
	{"path too large with the implied method", true, `[a-z_.]{18}`, "", PathMatch{}, "compiles to 102 instructions"},
}

func TestGRPCMatch(t *testing.T) {
	for _, tt := range grpcMatchTests {
		got, problem := grpcMatch(methodMatch(tt.regex, tt.service, tt.method))
		switch {
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("%s: problem %q, want one with %q", tt.name, problem, tt.problem)
		case tt.problem == "" && problem != "":
			t.Errorf("%s: problem %q", tt.name, problem)
		case tt.problem == "" && got.Path != tt.want:
			t.Errorf("%s: path %+v, want %+v", tt.name, got.Path, tt.want)
		}
	}
}

// FuzzGRPCMethodMatch checks what Envoy and callers rely on, for any
// method match: grpcMatch does not panic; a path it accepts is an
// expression Envoy takes (within re2.EnvoyLimit) or a literal path; and a
// call whose service and method names the parts match whole reaches the
// path, so that no accepted rule misses the calls it names.
func FuzzGRPCMethodMatch(f *testing.F) {
	for _, tt := range grpcMatchTests {
		f.Add(tt.regex, tt.service, tt.method, "pkg.Svc", "Get")
	}
	for _, tt := range unanchorTests {
		f.Add(true, tt.expr, tt.expr, "a", "Get")
	}
	f.Fuzz(func(t *testing.T, regex bool, service, method, callService, callMethod string) {
		m, problem := grpcMatch(methodMatch(regex, service, method))
		if problem != "" {
			return
		}
		if m.Path.Type == PathRegularExpression {
			if n, err := re2.Size(m.Path.Value); err != nil || n > re2.EnvoyLimit {
				t.Fatalf("(%q, %q): path %q: %d instructions, %v", service, method, m.Path.Value, n, err)
			}
		}
		if callService == "" || callMethod == "" || strings.Contains(callService+callMethod, "/") ||
			!utf8.ValidString(callService+callMethod) {
			return // not a gRPC call's name
		}
		if !namesWhole(regex, service, callService) || !namesWhole(regex, method, callMethod) {
			return
		}
		path := "/" + callService + "/" + callMethod
		if !pathMatches(m.Path, path) {
			t.Fatalf("(%q, %q) names %s, but its path %+v does not match it", service, method, path, m.Path)
		}
	})
}

// namesWhole reports whether a part of a method match, "" for any, matches
// the whole name: exactly, or as the part's parse says for an expression.
func namesWhole(regex bool, part, name string) bool {
	if part == "" {
		return true
	}
	if !regex {
		return part == name
	}
	re, err := syntax.Parse(part, syntax.Perl)
	if err != nil {
		return false
	}
	whole := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{{Op: syntax.OpBeginText}, re, {Op: syntax.OpEndText}}}
	return regexp.MustCompile(whole.String()).MatchString(name)
}

// pathMatches is how Envoy compares a request path with a gRPC route's
// path match.
func pathMatches(p PathMatch, path string) bool {
	switch p.Type {
	case PathExact:
		return path == p.Value
	case PathPrefix:
		return p.Value == "/" || path == p.Value || strings.HasPrefix(path, p.Value+"/")
	}
	return regexp.MustCompile(`^(?:` + p.Value + `)$`).MatchString(path)
}
