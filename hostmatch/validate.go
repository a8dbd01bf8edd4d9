// Validation of Gateway API hostnames.
//
// A hostname is checked in one left-to-right pass over its bytes, after three
// whole-value checks that no single byte can be blamed for (empty, longer than
// 253 bytes, an IP address). The pass keeps the start of the current label
// and reports the first byte that cannot be part of a hostname, so the Offset
// in an Error always points at the leftmost problem. The only state is the
// label start: a label ends at '.' or at the end of the string, and only then
// can "empty label", "trailing dot" and "ends with '-'" be decided.
//
// Worked example, "*.foo..Bar.com":
//
//	offset 0-1  "*."   the wildcard prefix; the labels start at offset 2
//	offset 2-4  "foo"  a label of three valid bytes
//	offset 5    '.'    ends "foo"; the next label starts at 6
//	offset 6    '.'    ends a label that started at 6: it is empty
//	                   -> at offset 6: empty label ("..")
//
// Had the string been "*.foo.Bar.com", the pass would stop at offset 6 with
// "upper-case letter 'B'", before looking at the rest.
//
// The CRD pattern from the Gateway API,
//
//	^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$
//
// accepts the same strings as this pass, except that the pass also limits
// labels to 63 bytes (RFC 1123); the fuzz test FuzzValidate checks that. The
// pass is hand-written rather than a regexp so that it can say what is wrong
// and where, and so that validating a valid hostname does not allocate (the
// one exception is a name shaped like a dotted quad, such as "010.0.0.1",
// which net/netip has to be asked about).

package hostmatch

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/projectsesame/sesame/internal/quote"
)

// Limits from RFC 1123 (and the Gateway API CRD's MaxLength).
const (
	maxHostnameLen = 253
	maxLabelLen    = 63
)

// Error is what Validate and ValidatePrecise return: it says what is wrong
// with a hostname and where.
type Error struct {
	// Hostname is the input as given.
	Hostname string
	// Offset is the byte offset of the first offending character, or
	// len(Hostname) when something is missing at the end ("*."), or -1 when
	// the problem is the whole value (empty, too long, an IP address).
	Offset int
	// Reason says what is wrong, for a human reader, for example
	// "upper-case letter 'F' (hostnames must be lower case)".
	Reason string
}

// Error returns the message, for example
//
//	invalid hostname "Foo.com": at offset 0: upper-case letter 'F' (hostnames must be lower case)
//
// The "at offset N: " part is left out when Offset is negative.
func (e *Error) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("invalid hostname %q: %s", quote.Value(e.Hostname), e.Reason)
	}
	return fmt.Sprintf("invalid hostname %q: at offset %d: %s", quote.Value(e.Hostname), e.Offset, e.Reason)
}

// Validate reports whether s is a valid Gateway API Hostname, precise
// ("foo.example.com") or wildcard ("*.example.com"), and returns an *Error
// saying what is wrong if it is not.
//
// A valid hostname is 1 to 253 bytes of labels separated by '.'. Each label
// is 1 to 63 bytes of lower-case letters, digits and '-', and starts and ends
// with a letter or digit. The first label may instead be "*", which makes the
// hostname a wildcard. There is no port and no trailing dot, and the hostname
// is not an IP address.
//
// The empty string is rejected: callers treat an absent hostname, which
// matches every host, separately. A lone "*" is rejected too, for the same
// reason: to match every host, omit the hostname.
func Validate(s string) error {
	switch {
	case s == "":
		// The caller must decide what an absent hostname means;
		// an empty one is a mistake.
		return &Error{Hostname: s, Offset: -1, Reason: "empty hostname"}
	case s == "*":
		return &Error{Hostname: s, Offset: 0,
			Reason: `lone "*" is not a hostname (omit the hostname to match every host)`}
	case len(s) > maxHostnameLen:
		return &Error{Hostname: s, Offset: -1,
			Reason: "too long: " + strconv.Itoa(len(s)) + " bytes, the limit is " + strconv.Itoa(maxHostnameLen)}
	case isIPAddress(s):
		return &Error{Hostname: s, Offset: -1,
			Reason: "IP address (a hostname must be a DNS name)"}
	}

	start := 0
	if s[0] == '*' {
		if len(s) == 1 || s[1] != '.' {
			return &Error{Hostname: s, Offset: 0, Reason: misplacedWildcard}
		}
		if len(s) == 2 {
			return &Error{Hostname: s, Offset: 2,
				Reason: `wildcard "*." must be followed by a domain, as in "*.example.com"`}
		}
		start = 2
	}
	return validateLabels(s, start)
}

// ValidatePrecise is Validate for a Gateway API PreciseHostname: wildcards are
// rejected too.
func ValidatePrecise(s string) error {
	if err := Validate(s); err != nil {
		return err
	}
	if IsWildcard(s) {
		return &Error{Hostname: s, Offset: 0,
			Reason: "wildcard not allowed (a precise hostname is required here)"}
	}
	return nil
}

const misplacedWildcard = `misplaced wildcard '*' (a wildcard must be the whole first label, as in "*.example.com")`

// validateLabels checks s[start:], the labels after an optional "*.", in one
// pass and returns the first problem.
func validateLabels(s string, start int) error {
	label := start // offset of the first byte of the current label
	for i := start; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if i == label {
				if i == 0 {
					return &Error{Hostname: s, Offset: i, Reason: "empty label (leading dot)"}
				}
				return &Error{Hostname: s, Offset: i, Reason: `empty label ("..")`}
			}
			if s[i-1] == '-' {
				return labelEndsWithHyphen(s, label, i)
			}
			if i == len(s)-1 {
				return &Error{Hostname: s, Offset: i,
					Reason: "trailing dot (write " + strconv.Quote(s[:i]) + " without the final '.')"}
			}
			label = i + 1
			continue
		}
		// Report a label as too long at its first byte past the limit, so
		// that problems further right are not reported before it.
		if i-label == maxLabelLen {
			end := strings.IndexByte(s[label:], '.')
			if end < 0 {
				end = len(s) - label
			}
			return &Error{Hostname: s, Offset: label,
				Reason: "label " + strconv.Quote(s[label:label+end]) + " is " + strconv.Itoa(end) +
					" bytes, the limit is " + strconv.Itoa(maxLabelLen)}
		}
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-':
			if i == label {
				end := strings.IndexByte(s[label:], '.')
				if end < 0 {
					end = len(s) - label
				}
				return &Error{Hostname: s, Offset: i,
					Reason: "label " + strconv.Quote(s[label:label+end]) + " starts with '-'"}
			}
		case 'A' <= c && c <= 'Z':
			return &Error{Hostname: s, Offset: i,
				Reason: "upper-case letter " + strconv.QuoteRune(rune(c)) + " (hostnames must be lower case)"}
		case c == ':' && i+1 < len(s) && allDigits(s[i+1:]):
			return &Error{Hostname: s, Offset: i,
				Reason: "port " + strconv.Quote(s[i:]) + " (a hostname has no port)"}
		case c == '*':
			return &Error{Hostname: s, Offset: i, Reason: misplacedWildcard}
		default:
			return &Error{Hostname: s, Offset: i,
				Reason: "invalid character " + quoteByteAt(s, i) + " (only a-z, 0-9, '-' and '.' are allowed)"}
		}
	}
	if s[len(s)-1] == '-' {
		return labelEndsWithHyphen(s, label, len(s))
	}
	return nil
}

// labelEndsWithHyphen reports the label s[label:end], whose last byte is '-'.
func labelEndsWithHyphen(s string, label, end int) error {
	return &Error{Hostname: s, Offset: end - 1,
		Reason: "label " + strconv.Quote(s[label:end]) + " ends with '-'"}
}

// quoteByteAt quotes the character that starts at s[i] as Go would write it:
// the whole rune when s[i] starts valid UTF-8, so that "é" is shown as 'é'
// and not as two meaningless bytes, and the byte alone otherwise.
func quoteByteAt(s string, i int) string {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return strconv.Quote(s[i : i+1])
	}
	return strconv.QuoteRune(r)
}

// isIPAddress reports whether s is an IP address, including the forms a user
// might paste from a URL: "[::1]" and an address with a port.
//
// netip is only asked about strings that could be addresses, because its
// error values allocate and Validate should not allocate for valid
// hostnames. Without a ':' only a dotted quad, four runs of digits, can be an
// address.
func isIPAddress(s string) bool {
	if !strings.Contains(s, ":") && (strings.Count(s, ".") != 3 || strings.Trim(s, "0123456789.") != "") {
		return false
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return true
	}
	if _, err := netip.ParseAddrPort(s); err == nil {
		return true
	}
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		_, err := netip.ParseAddr(s[1 : len(s)-1])
		return err == nil
	}
	return false
}
