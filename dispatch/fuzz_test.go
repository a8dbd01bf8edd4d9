package dispatch

// FuzzMatch in the style of net/netip's fuzz tests: seeded from the table
// tests, it asserts properties rather than outputs. Compile never panics and
// reports every problem as an *Error with a path; when it accepts the
// policies, Match agrees with the compiled rules taken one at a time and
// with the reference matcher written from the seed. Run it with
//
//	go test -run '^$' -fuzz FuzzMatch -fuzztime 30s ./dispatch

import (
	"errors"
	"strings"
	"testing"
)

func FuzzMatch(f *testing.F) {
	for _, tt := range matchTests {
		f.Add(tt.rule, tt.req)
	}
	for _, tt := range compileErrorTests {
		f.Add(tt.rules, "")
	}
	for _, tt := range compileWarningTests {
		f.Add(tt.rules, "verb=list res=pods/log")
	}
	f.Add(`verbs: list | verbs: get || verbs: get; users: -bob`, `verb=get user=bob`)
	f.Add(`nonResourceURLs: /a/*, /a/b/*, /ab || nonResourceURLs: /a*`, `path=/a/c`)
	f.Fuzz(func(t *testing.T, rules, req string) {
		ps := policies(rules)
		d, warns, err := Compile(ps)
		for _, w := range warns {
			if !strings.HasPrefix(w.Path, "policies[") || w.Message == "" {
				t.Fatalf("Compile(%q): warning %#v", rules, w)
			}
		}
		if err != nil {
			if d != nil {
				t.Fatalf("Compile(%q) returned a Dispatcher and an error", rules)
			}
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				var ce *Error
				if !errors.As(e, &ce) || !strings.HasPrefix(ce.Path, "policies[") || ce.Reason == "" {
					t.Fatalf("Compile(%q): error %#v", rules, e)
				}
			}
			return
		}
		a := request(req)
		checkAgainstReference(t, ps, d, a)
		compiled, _, _ := compileRules(ps)
		gp, gr, gok := d.Match(a)
		if cp, cr, cok := ruleMatch(compiled, a); gp != cp || gr != cr || gok != cok {
			t.Fatalf("Match(%+v) = %d, %d, %v; the compiled rules say %d, %d, %v", *a, gp, gr, gok, cp, cr, cok)
		}
	})
}
