package dispatch

import (
	"net/url"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/fields"
)

var fieldSelectorTests = []struct {
	sel          string
	name         string
	found, valid bool
}{
	// Terms and operators.
	{"", "", false, true},
	{"metadata.name=web", "web", true, true},
	{"metadata.name==web", "web", true, true},
	{"metadata.name!=web", "", false, true},
	{"metadata.name", "", false, false},
	{"metadata.name=", "", true, true},
	{"metadata.name===web", "", false, false},
	{"metadata.namespace=web", "", false, true},
	{"status.phase=Running,metadata.name=web", "web", true, true},
	{",,metadata.name=web,", "web", true, true},
	{"a!b=c,metadata.name=web", "web", true, true},

	// Several names: the smallest term wins, as Kubernetes sorts them.
	{"metadata.name=b,metadata.name=a", "a", true, true},
	{"metadata.name=a,metadata.name==b", "b", true, true},
	{"metadata.name!=a,metadata.name=b", "b", true, true},

	// Escapes in values, and what they cannot be.
	{`metadata.name=w\,eb`, "w,eb", true, true},
	{`metadata.name=a\=b\\c`, `a=b\c`, true, true},
	{`metadata.name=a\b`, "", false, false},
	{`metadata.name=web\`, "", false, false},
	{"metadata.name=a=b", "", false, false},
	{"metadata.name=w,eb", "", false, false},
	{"metadata.name=web,x", "", false, false},
	{"metadata.name=\xff\\,", "\uFFFD,", true, true},
	{"metadata.name=\xff", "\xff", true, true},
	{"metadata.name=a\\\xff", "", false, false},
}

// TestFieldSelectorName checks the table, and apimachinery's parser on it.
func TestFieldSelectorName(t *testing.T) {
	for _, tt := range fieldSelectorTests {
		name, found, valid := fieldSelectorName(tt.sel)
		if name != tt.name || found != tt.found || valid != tt.valid {
			t.Errorf("fieldSelectorName(%q) = %q, %v, %v; want %q, %v, %v", tt.sel, name, found, valid, tt.name, tt.found, tt.valid)
		}
		checkFieldSelector(t, tt.sel)
	}
}

// checkFieldSelector compares fieldSelectorName with fields.ParseSelector
// and RequiresExactMatch.
func checkFieldSelector(t *testing.T, sel string) {
	t.Helper()
	name, found, valid := fieldSelectorName(sel)
	s, err := fields.ParseSelector(sel)
	if valid != (err == nil) {
		t.Fatalf("fieldSelectorName(%q): valid %v; apimachinery: %v", sel, valid, err)
	}
	if err != nil {
		return
	}
	wantName, wantFound := s.RequiresExactMatch("metadata.name")
	if name != wantName || found != wantFound {
		t.Fatalf("fieldSelectorName(%q) = %q, %v; apimachinery: %q, %v", sel, name, found, wantName, wantFound)
	}
}

func FuzzFieldSelectorName(f *testing.F) {
	for _, tt := range fieldSelectorTests {
		f.Add(tt.sel)
	}
	f.Fuzz(checkFieldSelector)
}

// TestReadListQuery checks readListQuery against url.ParseQuery on the
// queries of the request tests.
func TestReadListQuery(t *testing.T) {
	for _, tt := range requestTests {
		_, query, _ := strings.Cut(tt.target, "?")
		checkListQuery(t, query)
	}
}

func checkListQuery(t *testing.T, query string) {
	t.Helper()
	q := readListQuery(query)
	values, _ := url.ParseQuery(query)
	for o, key := range listOptionNames {
		want, ok := values[key]
		if q.has[o] != ok {
			t.Fatalf("readListQuery(%q) has %s: %v, want %v", query, key, q.has[o], ok)
		}
		if ok && q.value(listOption(o)) != want[0] {
			t.Fatalf("readListQuery(%q): %s is %q, want %q", query, key, q.value(listOption(o)), want[0])
		}
	}
}

func FuzzReadListQuery(f *testing.F) {
	for _, tt := range requestTests {
		_, query, _ := strings.Cut(tt.target, "?")
		f.Add(query)
	}
	f.Add("w%61tch=1&watch=%zz&watch=2;&limit")
	f.Fuzz(checkListQuery)
}
