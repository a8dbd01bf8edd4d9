package httpproxy

import (
	"testing"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/internal/checktest"
)

func TestProxyRewrite(t *testing.T) {
	prefix := func(p string) proxyMatch { return proxyMatch{path: wildcardPattern{p}} }
	for _, tt := range []struct {
		name    string
		entries []contourv1.ReplacePrefix
		match   proxyMatch
		want    string // the replacement chosen; "" for none
		problem string
	}{
		{"the default", []contourv1.ReplacePrefix{{Replacement: "/x"}}, prefix("/api"), "/x", ""},
		{"the route's prefix wins", []contourv1.ReplacePrefix{{Replacement: "/x"}, {Prefix: "/api", Replacement: "/y"}}, prefix("/api"), "/y", ""},
		{"a trailing slash does not matter", []contourv1.ReplacePrefix{{Prefix: "/api", Replacement: "/y"}}, prefix("/api/"), "/y", ""},
		{"no entry for the prefix and no default", []contourv1.ReplacePrefix{{Prefix: "/other", Replacement: "/y"}}, prefix("/api"), "", ""},
		{"exact path", []contourv1.ReplacePrefix{{Replacement: "/x"}}, proxyMatch{exact: true, path: wildcardPattern{"/a"}}, "", "needs a literal prefix"},
		{"wildcard prefix", []contourv1.ReplacePrefix{{Replacement: "/x"}}, proxyMatch{path: wildcardPattern{"/a/", "/b"}}, "", "needs a literal prefix"},
		{"two defaults", []contourv1.ReplacePrefix{{Replacement: "/x"}, {Replacement: "/y"}}, prefix("/api"), "", "same prefix"},
		{"relative replacement", []contourv1.ReplacePrefix{{Replacement: "x"}}, prefix("/api"), "", `does not start with "/"`},
		{"replacement with LF", []contourv1.ReplacePrefix{{Replacement: "/x\ny"}}, prefix("/api"), "", `replacement: the value "/x\ny" holds the control character '\n'`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rw, problem := proxyRewrite(&contourv1.PathRewritePolicy{ReplacePrefix: tt.entries}, tt.match, "pathRewritePolicy")
			switch {
			case checktest.ProblemChecked(t, problem, tt.problem):
			case tt.want == "" && rw != nil:
				t.Errorf("%+v, want none", rw)
			case tt.want != "" && (rw == nil || rw.Prefix != tt.want || rw.MatchedPrefix != tt.match.path[0] || !rw.ReplacePrefix):
				t.Errorf("%+v, want replacement %q", rw, tt.want)
			}
		})
	}
}
