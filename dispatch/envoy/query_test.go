package envoy

import (
	"net/http/httptest"
	"testing"

	"github.com/projectsesame/sesame/dispatch"
)

// queryCases are queries of a collection GET with what dispatch makes of
// them (verb, name) and whether the regexes read them: "" when they do,
// "unclear" when the query cannot be read, "undecided" when the name
// cannot.
var queryCases = []struct {
	query, verb, name, read string
}{
	// list or watch
	{"", "list", "", ""},
	{"watch=1", "watch", "", ""},
	{"watch=true&limit=5", "watch", "", ""},
	{"watch", "watch", "", ""},
	{"watch=", "watch", "", ""},
	{"watch=0", "list", "", ""},
	{"watch=FaLsE", "list", "", ""},
	{"watch=false0", "watch", "", ""},
	{"x=1&watch=no", "watch", "", ""},
	{"watchx=1", "list", "", ""},
	{"xwatch=1", "list", "", ""},
	{"watch=1&watch=0", "watch", "", "unclear"},
	{"w%61tch=1", "watch", "", "unclear"},
	{"watch=tr%75e", "watch", "", "unclear"},
	{"watch=+", "watch", "", "unclear"},
	{"watch=1;x", "list", "", "unclear"},
	// fieldSelector names
	{"fieldSelector=metadata.name%3Dweb", "list", "web", ""},
	{"fieldSelector=metadata.name=web&watch=1", "watch", "web", ""},
	{"fieldSelector=metadata.name%3D%3Dweb", "list", "web", ""},
	{"fieldSelector=metadata.name%3da%3Ab", "list", "a:b", ""},
	{"fieldSelector=metadata.name%3D", "list", "", ""},
	{"fieldSelector=metadata.name%3D.", "list", "", ""},
	{"fieldSelector=spec.nodeName%3Dn1%2Cstatus.phase%21%3DFailed", "list", "", ""},
	{"fieldSelector=metadata.name%3Dweb&limit=500&timeoutSeconds=30", "list", "web", ""},
	{"fieldSelector=metadata.name%3Dweb&limit=-1", "list", "web", ""},
	{"fieldSelector=metadata.name%3Dweb&limit=x", "list", "", ""},
	{"fieldSelector=metadata.name%3Dweb&limit", "list", "", ""},
	{"fieldSelector=metadata.name%3Dweb&timeoutSeconds=-", "list", "", ""},
	{"fieldSelector=metadata.name%3Dweb&limit=99999999999999999999", "list", "", "undecided"},
	{"fieldSelector=metadata.name%3Dweb&limit=%35", "list", "web", "undecided"},
	{"fieldSelector=metadata.name%3Dweb&labelSelector=app%3Dx", "list", "web", "undecided"},
	{"fieldSelector=metadata.name%3Dweb%2Cx%3Dy", "list", "web", "undecided"},
	{"fieldSelector=metadata.name!%3Dweb", "list", "", "undecided"},
	{"fieldSelector=m%65tadata.name%3Dweb", "list", "web", "unclear"},
	{"fieldSelector=metadata.name%3Dweb%", "list", "", "unclear"},
	{"fieldSelector=a&fieldSelector=metadata.name%3Dweb", "list", "", "unclear"},
}

// TestQueryConditions checks the query regexes against dispatch: where
// none of a part's unclear conditions holds, its exact dnf says what
// dispatch says, and where the name is undecided, the undecided dnf holds.
func TestQueryConditions(t *testing.T) {
	for _, tt := range queryCases {
		target := "/api/v1/pods?" + tt.query
		a := dispatch.AttributesFromRequest(httptest.NewRequest("GET", target, nil), "", nil)
		if a.Verb != tt.verb || a.Name != tt.name {
			t.Errorf("%q: dispatch reads %s %q, the table %s %q", tt.query, a.Verb, a.Name, tt.verb, tt.name)
		}
		holdsDNF := func(d dnf) bool {
			for _, c := range d {
				if holdsAll(c, "GET", target) {
					return true
				}
			}
			return false
		}
		unclear := func(p queryPart) bool {
			for _, u := range p.unclear {
				if holds(u, "GET", target) {
					return true
				}
			}
			return false
		}
		watch := listWatchPart(false, true)
		names := fieldSelectorNamePart(nameSelection{values: []string{"web", "a:b", "."}})
		others := fieldSelectorNamePart(nameSelection{values: []string{"web", "a:b", "."}, negated: true})
		if got := unclear(watch) || unclear(names); got != (tt.read == "unclear") {
			t.Errorf("%q: unclear %v, want %v", tt.query, got, tt.read == "unclear")
		}
		if tt.read == "unclear" {
			continue
		}
		if got := holdsDNF(watch.exact); got != (a.Verb == "watch") {
			t.Errorf("%q: watch %v, dispatch's verb %s", tt.query, got, a.Verb)
		}
		undecided := holdsDNF(names.undecided)
		if undecided != (tt.read == "undecided") || holdsDNF(others.undecided) != undecided {
			t.Errorf("%q: name undecided %v (negated list %v), want %v", tt.query, undecided, holdsDNF(others.undecided), tt.read == "undecided")
		}
		if undecided {
			continue
		}
		listed := a.Name == "web" || a.Name == "a:b"
		if got := holdsDNF(names.exact); got != listed {
			t.Errorf("%q: name in [web a:b .] %v, dispatch's name %q", tt.query, got, a.Name)
		}
		if got := holdsDNF(others.exact); got != !listed {
			t.Errorf("%q: name not in [web a:b .] %v, dispatch's name %q", tt.query, got, a.Name)
		}
	}
}
