package re2

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// EnvoyLimit is the largest program Envoy accepts by default.
const EnvoyLimit = 100

// MaxLength is the longest expression, in bytes, that Sesame parses.
//
// Any expression within EnvoyLimit is far shorter: each of its 100
// instructions is one literal, class range or operator, which takes a few
// bytes to write (the longest ordinary spelling, an escaped code point such
// as \x{10FFFF}, takes 10); only padding, such as a character class that repeats
// its members ("[aaaa]"), makes a longer expression fit. 4 KiB is also the largest
// value the Gateway API admits for a regular expression (HTTPHeaderMatch and
// HTTPQueryParamMatch values are at most 4096 bytes, paths at most 1024), so
// the limit refuses nothing the API server would store there.
const MaxLength = 4096

// LengthError is the error for an expression longer than MaxLength. It is
// returned before the expression is parsed.
type LengthError struct {
	Length int // the expression's length in bytes
}

func (e *LengthError) Error() string {
	return fmt.Sprintf("the regular expression is %d bytes long, over Sesame's limit of %d bytes for regular expressions (re2.MaxLength; Envoy's limit of %d RE2 instructions admits none that long)", e.Length, MaxLength, EnvoyLimit)
}

// CheckLength returns a *LengthError when expr is longer than MaxLength, and
// nil otherwise.
func CheckLength(expr string) error {
	if len(expr) > MaxLength {
		return &LengthError{Length: len(expr)}
	}
	return nil
}

// Parse parses expr with RE2's syntax (syntax.Perl), after CheckLength.
func Parse(expr string) (*syntax.Regexp, error) {
	if err := CheckLength(expr); err != nil {
		return nil, err
	}
	return syntax.Parse(expr, syntax.Perl)
}

// CompileFull compiles expr, after CheckLength, into a Go regexp that
// matches a whole string, as Envoy's safe_regex does: ^(?:expr)$.
func CompileFull(expr string) (*regexp.Regexp, error) {
	if err := CheckLength(expr); err != nil {
		return nil, err
	}
	return regexp.Compile(`^(?:` + expr + `)$`)
}

// Size estimates the size RE2 gives the program of expr, or returns the
// parse error (a *LengthError, without parsing, for an expression longer
// than MaxLength). Go compiles a character class of k ranges to one
// instruction where RE2 uses k range instructions joined by k-1
// alternations, so "/id/[0-9a-f]{64}" is about 200 to RE2 though 70 to Go;
// other instructions count one each. RE2 also expands non-ASCII ranges to
// UTF-8 byte sequences, which this does not count: the estimate errs low
// only for classes beyond ASCII.
func Size(expr string) (int, error) {
	re, err := Parse(expr)
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
