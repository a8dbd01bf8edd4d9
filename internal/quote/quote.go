package quote

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxValue is the most of one value a message quotes.
const MaxValue = 200

// Value is a value from the user's objects, formatted for a message: %q
// quotes at most MaxValue bytes of it, %s and %v write as much (with
// U+FFFD for bytes that are not UTF-8, as %q escapes them), and both say
// how long the whole value was when it is cut. For example, a
// 100,000-byte regular expression of a's:
//
//	"aaaa...a" (the first 200 of 100000 bytes)
type Value string

// Format implements fmt.Formatter.
func (v Value) Format(f fmt.State, verb rune) {
	s, cut := Clip(string(v), MaxValue)
	n := len(s)
	if verb == 'q' {
		s = strconv.Quote(s)
	} else {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if cut {
		s += fmt.Sprintf(" (the first %d of %d bytes)", n, len(v))
	}
	io.WriteString(f, s)
}

// Clip returns s cut to at most n bytes, at a rune boundary, and whether
// it was cut.
func Clip(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// Cap cuts a message to at most limit bytes, ending it with a marker that
// says it was cut and how long it was. limit must leave room for the
// marker (about 50 bytes).
func Cap(msg string, limit int) string {
	if len(msg) <= limit {
		return msg
	}
	// The marker with the whole length twice is at least as long as the
	// one written.
	longest := fmt.Sprintf(" [message cut: %d of %d bytes shown]", len(msg), len(msg))
	head, _ := Clip(msg, max(limit-len(longest), 0))
	return head + fmt.Sprintf(" [message cut: %d of %d bytes shown]", len(head), len(msg))
}

// Plural is one when n is 1, else many: the word for n things in a
// message ("1 listener", "2 listeners").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
