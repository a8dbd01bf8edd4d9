package httpproxy

import (
	"strings"
	"testing"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
)

type hc = contourv1.HeaderMatchCondition

var headerParseTests = []struct {
	in      hc
	want    string // headerCondition.String()
	problem string
}{
	// One test each.
	{hc{Name: "X-A", Present: true}, "present", ""},
	{hc{Name: "x-a", NotPresent: true}, "notpresent", ""},
	{hc{Name: "x-a", Exact: "v"}, `exact "v"`, ""},
	{hc{Name: "x-a", NotExact: "v"}, `notexact "v"`, ""},
	{hc{Name: "x-a", Contains: "v"}, `contains "v"`, ""},
	{hc{Name: "x-a", NotContains: "v"}, `notcontains "v"`, ""},
	{hc{Name: "x-a", Regex: "v[0-9]+"}, `regex "v[0-9]+"`, ""},
	{hc{Name: ":authority", Exact: "a"}, `exact "a"`, ""},
	// Problems.
	{hc{Name: "x-a"}, "", "sets no test"},
	{hc{Name: "x-a", Exact: "a", Contains: "b"}, "", "sets exact and contains"},
	{hc{Name: "x a", Exact: "a"}, "", "not a header field name"},
	{hc{Name: "", Present: true}, "", "not a header field name"},
	{hc{Name: "x-a", Regex: "a("}, "", "invalid RE2"},
	{hc{Name: "x-a", Regex: "(a{1,1000}){1,1000}"}, "", "invalid RE2"},
	{hc{Name: "x-a", Regex: "[a-z0-9]{60}"}, "", "Envoy refuses large ones"},
}

func TestParseHeaderCondition(t *testing.T) {
	for _, tt := range headerParseTests {
		h, problem := parseHeaderCondition(&tt.in, "spec.routes[0].conditions[0].header")
		switch {
		case tt.problem == "" && problem != "":
			t.Errorf("%+v: %s", tt.in, problem)
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("%+v: problem %q, want it to contain %q", tt.in, problem, tt.problem)
		case tt.problem != "" && !strings.HasPrefix(problem, "spec.routes[0].conditions[0].header"):
			t.Errorf("%+v: problem %q does not say where", tt.in, problem)
		case tt.problem == "" && (h.String() != tt.want || h.name != strings.ToLower(tt.in.Name)):
			t.Errorf("%+v parsed as %s on %q", tt.in, h, h.name)
		}
	}
}

// h builds a parsed condition from its surface form.
func h(name, op, value string, flags ...string) headerCondition {
	c := headerCondition{name: name, op: headerOp(op), value: value, origin: "here"}
	for _, f := range flags {
		switch f {
		case "ignoreCase":
			c.ignoreCase = true
		case "missingAsEmpty":
			c.missingAsEmpty = true
		}
	}
	return c
}

var headerSetTests = []struct {
	name    string
	set     []headerCondition
	problem string // substring; "" when the set can match
}{
	// Contour's five rules.
	{"two exact", []headerCondition{h("x", "exact", "a"), h("x", "exact", "b")}, "two exact conditions"},
	{"two equal exact", []headerCondition{h("x", "exact", "a"), h("x", "exact", "a")}, "two exact conditions"},
	{"present and notpresent", []headerCondition{h("x", "present", ""), h("x", "notpresent", "")}, "absent"},
	{"notpresent and present", []headerCondition{h("x", "notpresent", ""), h("x", "present", "")}, "absent"},
	{"exact and notexact, same value", []headerCondition{h("x", "exact", "a"), h("x", "notexact", "a")}, "fails the second"},
	{"notexact and exact, same value", []headerCondition{h("x", "notexact", "a"), h("x", "exact", "a")}, "fails the second"},
	{"contains and notcontains, same value", []headerCondition{h("x", "contains", "a"), h("x", "notcontains", "a")}, "contains the second"},
	{"notcontains and contains, same value", []headerCondition{h("x", "notcontains", "a"), h("x", "contains", "a")}, "contains the second"},
	// The same rules in other spellings.
	{"notpresent and exact", []headerCondition{h("x", "notpresent", ""), h("x", "exact", "a")}, "absent"},
	{"exact and notpresent", []headerCondition{h("x", "exact", "a"), h("x", "notpresent", "")}, "absent"},
	{"notpresent and regex", []headerCondition{h("x", "notpresent", ""), h("x", "regex", ".*")}, "absent"},
	{"notpresent and notexact", []headerCondition{h("x", "notpresent", ""), h("x", "notexact", "a")}, "absent"},
	{"notpresent and notexact, missing as empty", []headerCondition{h("x", "notpresent", ""), h("x", "notexact", "a", "missingAsEmpty")}, ""},
	{"exact outside contains", []headerCondition{h("x", "exact", "foo"), h("x", "contains", "z")}, "fails the second"},
	{"exact inside notcontains", []headerCondition{h("x", "exact", "foo"), h("x", "notcontains", "o")}, "fails the second"},
	{"exact and regex that rejects it", []headerCondition{h("x", "regex", "[0-9]+"), h("x", "exact", "a")}, "fails the second"},
	{"contains and a notcontains inside it", []headerCondition{h("x", "contains", "abc"), h("x", "notcontains", "b")}, "contains the second"},
	{"exact and notexact, case folded", []headerCondition{h("x", "exact", "a"), h("x", "notexact", "A", "ignoreCase")}, "fails the second"},
	{"notcontains ignoring case", []headerCondition{h("x", "contains", "ab"), h("x", "notcontains", "AB", "ignoreCase")}, "contains the second"},
	// Sets that can match.
	{"different headers", []headerCondition{h("x", "exact", "a"), h("y", "notexact", "a")}, ""},
	{"exact and notexact, other values", []headerCondition{h("x", "exact", "a"), h("x", "notexact", "b")}, ""},
	{"exact ignoring case and notexact", []headerCondition{h("x", "exact", "a", "ignoreCase"), h("x", "notexact", "a")}, ""},
	{"contains ignoring case and notcontains", []headerCondition{h("x", "contains", "ab", "ignoreCase"), h("x", "notcontains", "ab")}, ""},
	{"exact and matching regex", []headerCondition{h("x", "exact", "42"), h("x", "regex", "[0-9]+")}, ""},
	{"present twice", []headerCondition{h("x", "present", ""), h("x", "present", "")}, ""},
	{"notpresent twice", []headerCondition{h("x", "notpresent", ""), h("x", "notpresent", "")}, ""},
	{"contains and notcontains, disjoint", []headerCondition{h("x", "contains", "a"), h("x", "notcontains", "b")}, ""},
}

func TestCheckHeaderSet(t *testing.T) {
	for _, tt := range headerSetTests {
		problem := checkHeaderSet(tt.set)
		switch {
		case tt.problem == "" && problem != "":
			t.Errorf("%s: %s", tt.name, problem)
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("%s: problem %q, want it to contain %q", tt.name, problem, tt.problem)
		case tt.problem != "" && strings.Count(problem, "(here)") != 2:
			t.Errorf("%s: problem %q does not say where both conditions are", tt.name, problem)
		}
	}
}

// TestHeaderStringMatch: the route condition Envoy gets for each test.
func TestHeaderStringMatch(t *testing.T) {
	for _, tt := range []struct {
		in   headerCondition
		want graph.StringMatch
	}{
		{h("x", "present", ""), graph.StringMatch{Name: "x", Type: graph.MatchPresent}},
		{h("x", "notpresent", ""), graph.StringMatch{Name: "x", Type: graph.MatchPresent, Invert: true}},
		{h("x", "exact", "a", "ignoreCase"), graph.StringMatch{Name: "x", Type: graph.MatchExact, Value: "a", IgnoreCase: true}},
		{h("x", "notexact", "a", "missingAsEmpty"), graph.StringMatch{Name: "x", Type: graph.MatchExact, Value: "a", Invert: true, MissingAsEmpty: true}},
		{h("x", "contains", "a"), graph.StringMatch{Name: "x", Type: graph.MatchContains, Value: "a"}},
		{h("x", "notcontains", "a", "ignoreCase"), graph.StringMatch{Name: "x", Type: graph.MatchContains, Value: "a", Invert: true, IgnoreCase: true}},
		{h("x", "regex", "a+", "ignoreCase"), graph.StringMatch{Name: "x", Type: graph.MatchRegularExpression, Value: "a+"}},
	} {
		if got := tt.in.stringMatch(); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestTreatMissingAsEmptyOnlyForNegations: Contour passes
// treatMissingAsEmpty for notexact and notcontains only.
func TestTreatMissingAsEmptyOnlyForNegations(t *testing.T) {
	for _, in := range []hc{
		{Name: "x", Exact: "a", TreatMissingAsEmpty: true},
		{Name: "x", Present: true, TreatMissingAsEmpty: true},
	} {
		got, _ := parseHeaderCondition(&in, "here")
		if got.missingAsEmpty {
			t.Errorf("%+v keeps treatMissingAsEmpty", in)
		}
	}
	got, _ := parseHeaderCondition(&hc{Name: "x", NotContains: "a", TreatMissingAsEmpty: true}, "here")
	if !got.missingAsEmpty {
		t.Error("notcontains loses treatMissingAsEmpty")
	}
}
