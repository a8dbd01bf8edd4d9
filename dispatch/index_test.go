package dispatch

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The compiled rules, matched one at a time without the index: the middle
// layer between refMatch (the policies as written) and Match (the index).
// If Match disagrees with refMatch, comparing both with ruleMatch says
// whether Compile or the index is wrong.

func ruleMatch(rules []rule, a *Attributes) (int, int, bool) {
	for _, r := range rules {
		if compiledRuleMatches(&r, a) {
			return r.policy, r.index, true
		}
	}
	return -1, -1, false
}

func compiledRuleMatches(r *rule, a *Attributes) bool {
	is := func(v string) func(string) bool { return func(x string) bool { return x == v } }
	inGroups := func(x string) bool { return slices.Contains(a.Groups, x) }
	groupWithPrefix := func(p string) bool {
		return slices.ContainsFunc(a.Groups, func(g string) bool { return strings.HasPrefix(g, p) })
	}
	userWithPrefix := func(p string) bool { return strings.HasPrefix(a.User, p) }
	if !listMatches(&r.verbs, is(a.Verb)) || !listMatchesPrefixes(&r.subject, is(a.User), userWithPrefix) ||
		!listMatchesPrefixes(&r.userGroups, inGroups, groupWithPrefix) {
		return false
	}
	if !a.IsResourceRequest {
		return r.urls.all || slices.Contains(r.urls.exact, a.Path) ||
			slices.ContainsFunc(r.urls.prefixes, func(q string) bool { return strings.HasPrefix(a.Path, q) })
	}
	resource := func(x string) bool {
		if a.Subresource == "" {
			return x == a.Resource
		}
		res, sub, ok := strings.Cut(x, "/")
		return ok && sub == a.Subresource && (res == a.Resource || res == star)
	}
	return listMatches(&r.apiGroups, is(a.APIGroup)) && listMatches(&r.resources, resource) && listMatches(&r.resourceNames, is(a.Name))
}

// listMatches is a compiled list's meaning: some listed value hits, or no
// unlisted value does.
func listMatches(l *list, hit func(x string) bool) bool {
	return listMatchesPrefixes(l, hit, func(string) bool { return false })
}

// listMatchesPrefixes is listMatches for a list with prefixes, which
// prefixHit tells.
func listMatchesPrefixes(l *list, hit, prefixHit func(x string) bool) bool {
	some := slices.ContainsFunc(l.values, hit) || slices.ContainsFunc(l.prefixes, prefixHit)
	switch l.mode {
	case matchAll:
		return true
	case matchListed:
		return some
	case matchUnlisted:
		return !some
	}
	return false
}

// TestIndexAgreesWithRules checks the index against the compiled rules,
// and the compiled rules against the policies, on generated input.
func TestIndexAgreesWithRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		ps := genPolicies(rng, 100)
		rules, _, err := compileRules(ps)
		if err != nil {
			t.Fatal(err)
		}
		d := build(rules)
		for range 100 {
			a := genRequest(rng)
			gp, gr, gok := d.Match(a)
			cp, cr, cok := ruleMatch(rules, a)
			if gp != cp || gr != cr || gok != cok {
				t.Fatalf("Match(%+v) = %d, %d, %v; the compiled rules say %d, %d, %v%s", *a, gp, gr, gok, cp, cr, cok, describe(ps))
			}
			if wp, wr, wok := refMatch(ps, a); cp != wp || cr != wr || cok != wok {
				t.Fatalf("compiled rules match %+v at %d, %d, %v; the reference says %d, %d, %v%s", *a, cp, cr, cok, wp, wr, wok, describe(ps))
			}
		}
	}
}

func TestLongestPrefix(t *testing.T) {
	prefixes := []string{"/", "/a", "/a/b/", "/a/bc", "/ab", "/b/"}
	x := prefixList{prefixes: prefixes, parents: make([]int32, len(prefixes))}
	for i, q := range prefixes {
		x.parents[i] = -1
		for j := range i {
			if strings.HasPrefix(q, prefixes[j]) {
				x.parents[i] = int32(j) // the last, so the longest
			}
		}
	}
	tests := []struct {
		path, want string
	}{
		// Exactly a prefix.
		{"/a", "/a"},
		{"/a/b/", "/a/b/"},

		// The greatest prefix below the path starts it.
		{"/a/b/c", "/a/b/"},
		{"/abc", "/ab"},
		{"/b/x", "/b/"},

		// It does not, and its ancestors are tried: "/a/bc" < "/a/bd",
		// then "/a"; "/ab" < "/ac", then "/a".
		{"/a/bd", "/a"},
		{"/ac", "/a"},
		{"/a/b", "/a"},
		{"/b", "/"},

		// None.
		{"", ""},
		{"x", ""},
	}
	for _, tt := range tests {
		got := ""
		if i := x.longestPrefix(tt.path); i >= 0 {
			got = prefixes[i]
		}
		// The slow way: every prefix, longest wins.
		want := ""
		for _, q := range prefixes {
			if strings.HasPrefix(tt.path, q) && len(q) > len(want) {
				want = q
			}
		}
		if got != tt.want || want != tt.want {
			t.Errorf("longestPrefix(%q) = %q, the slow way %q, want %q", tt.path, got, want, tt.want)
		}
	}
}

// TestIndexSharesBitsets checks that identical bitsets are stored once:
// every value some rule lists in only one field of one rule gets the same
// bitset as the others in its field.
func TestIndexSharesBitsets(t *testing.T) {
	d, _, err := Compile(policies(`verbs: a, b, c, d, e; resources: p, q, r, s; users: u1, u2, u3`))
	if err != nil {
		t.Fatal(err)
	}
	if a, e := d.verbs.lookup("a"), d.verbs.lookup("e"); a != e || a != d.all {
		t.Errorf("verbs a and e at offsets %d and %d, all at %d; want all three the same", a, e, d.all)
	}
	if other := d.verbs.lookup("x"); other == d.all {
		t.Errorf("an unlisted verb has the bitset of every rule")
	}
	// One bitset with the rule, one without, each one word.
	if len(d.arena) != 2 {
		t.Errorf("arena has %d words, want 2", len(d.arena))
	}
}
