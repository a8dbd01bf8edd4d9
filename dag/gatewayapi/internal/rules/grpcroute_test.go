package rules

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
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
	want            graph.PathMatch
	chars           [2]uint16 // of service and method, which rank the match
	problem         string    // a part of the problem, when the match is refused
}{
	// Exact.
	{"service and method", false, "pkg.Svc", "Get", graph.PathMatch{Type: graph.PathExact, Value: "/pkg.Svc/Get"}, [2]uint16{7, 3}, ""},
	{"service only", false, "pkg.Svc", "", graph.PathMatch{Type: graph.PathPrefix, Value: "/pkg.Svc"}, [2]uint16{7, 0}, ""},
	{"method only", false, "", "Get", graph.PathMatch{Type: graph.PathRegularExpression, Value: "/[^/]+/Get"}, [2]uint16{0, 3}, ""},
	{"neither", false, "", "", graph.PathMatch{}, [2]uint16{}, "give a service, a method or both"},
	{"not a service name", false, "pkg/Svc", "", graph.PathMatch{}, [2]uint16{}, "is not a gRPC service name"},
	{"not a method name", false, "", "Get.x", graph.PathMatch{}, [2]uint16{}, "is not a gRPC method name"},

	// RegularExpression: the parts as they stand in the path, a missing
	// one matching any name; each counts its characters there, without
	// the anchors it loses.
	{"regex service and method", true, `pkg\.v[0-9]+\.Svc`, "Get.*", graph.PathMatch{Type: graph.PathRegularExpression, Value: `/(pkg\.v[0-9]+\.Svc)/(Get.*)`}, [2]uint16{17, 5}, ""},
	{"regex service only", true, `pkg\..*`, "", graph.PathMatch{Type: graph.PathRegularExpression, Value: `/(pkg\..*)/([^/]+)`}, [2]uint16{7, 0}, ""},
	{"regex method only", true, "", "Get.*", graph.PathMatch{Type: graph.PathRegularExpression, Value: `/([^/]+)/(Get.*)`}, [2]uint16{0, 5}, ""},
	{"anchors at the edges", true, `^pkg\.A$|^pkg\.B$`, `^Get$|^List$`, graph.PathMatch{Type: graph.PathRegularExpression, Value: `/(pkg\.A|pkg\.B)/(Get|List)`}, [2]uint16{13, 8}, ""},
	{"anchor in the middle", true, "", `Get$List`, graph.PathMatch{}, [2]uint16{}, "anchors may only begin or end the expression"},
	{"invalid part", true, "(", "", graph.PathMatch{}, [2]uint16{}, "method.service: invalid RE2"},
	{"part too large", true, "", `[a-z_.]{40}`, graph.PathMatch{}, [2]uint16{}, "method.method: the regular expression"},
	// Each part is within Envoy's limit; the path they make is not.
	{"path too large, two parts", true, `[a-z_.]{12}`, `[A-Za-z_]{10}`, graph.PathMatch{}, [2]uint16{}, "together make a path expression Envoy would refuse"},
	{"path too large with the implied method", true, `[a-z_.]{18}`, "", graph.PathMatch{}, [2]uint16{}, "compiles to 102 instructions"},
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
		case tt.problem == "" && [2]uint16{got.service, got.method} != tt.chars:
			t.Errorf("%s: service and method characters %d, %d; want %v", tt.name, got.service, got.method, tt.chars)
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
		if m.Path.Type == graph.PathRegularExpression {
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
func pathMatches(p graph.PathMatch, path string) bool {
	switch p.Type {
	case graph.PathExact:
		return path == p.Value
	case graph.PathPrefix:
		return p.Value == "/" || path == p.Value || strings.HasPrefix(path, p.Value+"/")
	}
	return regexp.MustCompile(`^(?:` + p.Value + `)$`).MatchString(path)
}
