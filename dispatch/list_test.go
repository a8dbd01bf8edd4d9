package dispatch

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseList(t *testing.T) {
	tests := []struct {
		f        *field
		entries  string // comma-separated; "" is the empty list, `""` an empty entry
		mode     listMode
		values   string // comma-separated
		warnings int
	}{
		// Empty lists: nothing or everything, by field.
		{&verbsField, ``, matchNone, ``, 0},
		{&apiGroupsField, ``, matchNone, ``, 0},
		{&resourcesField, ``, matchNone, ``, 0},
		{&usersField, ``, matchNone, ``, 0},
		{&urlsField, ``, matchNone, ``, 0},
		{&resourceNamesField, ``, matchAll, ``, 0},
		{&userGroupsField, ``, matchAll, ``, 0},

		// "*", alone or beside others (which it ignores, with a warning).
		{&verbsField, `*`, matchAll, ``, 0},
		{&verbsField, `get,*`, matchAll, ``, 1},
		{&verbsField, `*,-get`, matchAll, ``, 1},
		{&urlsField, `/a,*`, matchAll, ``, 1},

		// Positive lists, sorted and deduplicated.
		{&verbsField, `watch,get`, matchListed, `get,watch`, 0},
		{&verbsField, `get,get`, matchListed, `get`, 1},
		{&apiGroupsField, `"",apps`, matchListed, `,apps`, 0},
		{&resourcesField, `pods/log,*/status,pods`, matchListed, `*/status,pods,pods/log`, 0},
		{&urlsField, `/b,/a/*`, matchListed, `/a/*,/b`, 0},

		// Negated lists.
		{&verbsField, `-get`, matchUnlisted, `get`, 0},
		{&resourcesField, `-pods,-deployments`, matchUnlisted, `deployments,pods`, 0},
		{&apiGroupsField, `-`, matchUnlisted, ``, 0},
		{&userGroupsField, `-b,-a,-b`, matchUnlisted, `a,b`, 1},

		// Mixed lists keep the positive entries, with a warning.
		{&resourcesField, `-pods,deployments`, matchListed, `deployments`, 1},
		{&userGroupsField, `-dev,ops,-qa`, matchListed, `ops`, 1},
	}
	for _, tt := range tests {
		var entries []string
		if tt.entries != "" {
			entries = strings.Split(strings.ReplaceAll(tt.entries, `""`, ""), ",")
		}
		var warns []Warning
		var errs []error
		got := parseList("p", entries, tt.f, &warns, &errs)
		var want []string
		if tt.mode == matchListed || tt.mode == matchUnlisted {
			want = strings.Split(tt.values, ",")
		}
		if len(errs) != 0 || got.mode != tt.mode || !reflect.DeepEqual(got.values, want) || len(warns) != tt.warnings {
			t.Errorf("parseList(%s %q) = %v %q, %d warnings, errors %v; want %v %q, %d warnings",
				tt.f.name, entries, got.mode, got.values, len(warns), errs, tt.mode, want, tt.warnings)
		}
	}
}

func TestCheckResource(t *testing.T) {
	tests := []struct {
		v, wantReason string // "" if allowed
	}{
		// Allowed forms.
		{"pods", ""},
		{"pods/log", ""},
		{"*/status", ""},

		// {resource}/*, and "*" anywhere else.
		{"pods/*", "{resource}/* is not supported"},
		{"*/*", "{resource}/* is not supported"},
		{"po*", "only allowed as a whole entry"},
		{"pods/lo*", "only allowed as a whole entry"},
		{"*pods/log", "only allowed as a whole entry"},

		// Shape.
		{"a/b/c", "a resource is {resource}"},
		{"/log", "must not be empty"},
		{"pods/", "must not be empty"},
	}
	for _, tt := range tests {
		got := checkResource(tt.v)
		if tt.wantReason == "" && got != "" || !strings.Contains(got, tt.wantReason) {
			t.Errorf("checkResource(%q) = %q, want %q", tt.v, got, tt.wantReason)
		}
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		v, wantReason string
	}{
		{"/", ""},
		{"/healthz", ""},
		{"/healthz/*", ""},
		{"/healthz*", ""},
		{"/*", ""},
		{"healthz", `starts with "/"`},
		{"", `starts with "/"`},
		{"/a/*/b", "only allowed at the end"},
		{"/a**", "only allowed at the end"},
	}
	for _, tt := range tests {
		got := checkURL(tt.v)
		if tt.wantReason == "" && got != "" || !strings.Contains(got, tt.wantReason) {
			t.Errorf("checkURL(%q) = %q, want %q", tt.v, got, tt.wantReason)
		}
	}
}
