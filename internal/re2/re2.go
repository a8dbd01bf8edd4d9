// Package re2 measures regular expressions the way Envoy will judge them.
//
// Envoy compiles every safe_regex with Google's RE2 and refuses, by default,
// a program of more than 100 instructions (re2.max_program_size.error_level);
// a refused route table takes every route of its listener down with it. Go's
// regexp/syntax compiles the same syntax to a comparable program, from which
// Size estimates RE2's count, so that Sesame can refuse such an expression
// with a clear message instead of sending Envoy configuration it rejects.
// Both HTTPRoute matches (package dag) and generated UpstreamCluster matchers
// (package xdsgen) are measured here.
package re2

import "regexp/syntax"

// EnvoyLimit is the largest program Envoy accepts by default.
const EnvoyLimit = 100

// Size estimates the size RE2 gives the program of expr, or returns the
// parse error. Go compiles a character class of k ranges to one instruction
// where RE2 uses k range instructions joined by k-1 alternations, so
// "/id/[0-9a-f]{64}" is about 200 to RE2 though 70 to Go; other instructions
// count one each. RE2 also expands non-ASCII ranges to UTF-8 byte sequences,
// which this does not count: the estimate errs low only for classes beyond
// ASCII.
func Size(expr string) (int, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0, err
	}
	n := 0
	for _, inst := range prog.Inst {
		if inst.Op == syntax.InstRune && len(inst.Rune) > 2 {
			n += 2*(len(inst.Rune)/2) - 1
			continue
		}
		n++
	}
	return n, nil
}
