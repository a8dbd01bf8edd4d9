package check

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/projectsesame/sesame/internal/re2"
	"github.com/projectsesame/sesame/internal/report"
)

// Regex reports why value is not an RE2 expression Sesame passes to
// Envoy: Go's regexp/syntax implements RE2 syntax, and package re2 measures
// the program against Envoy's limit.
func Regex(value string) string {
	if value == "" {
		return "the regular expression is empty; Envoy requires one of at least one character (\".*\" matches anything)."
	}
	n, err := re2.Size(value)
	if lengthErr := (*re2.LengthError)(nil); errors.As(err, &lengthErr) {
		return err.Error() + "." // not quoted: status would carry all of it
	}
	if err != nil {
		return fmt.Sprintf("invalid RE2 regular expression %q: %v.", report.Value(value), report.RegexError(err))
	}
	if n > re2.EnvoyLimit {
		return fmt.Sprintf("the regular expression %q compiles to %d instructions; Envoy refuses large ones, so Sesame allows %d (simplify it, e.g. avoid large {n} repetitions).", report.Value(value), n, re2.EnvoyLimit)
	}
	return ""
}

// isToken reports whether s is an RFC 9110 token (tchar+).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenChar(s[i]) {
			return false
		}
	}
	return true
}

// ValidHeaderName reports whether a lower-cased name is a header field name
// (RFC 9110 token) of at most maxHeaderName bytes. Pseudo-headers such as
// ":authority" are not allowed: the spec's HTTPHeaderName excludes them.
func ValidHeaderName(name string) bool { return len(name) <= maxHeaderName && isToken(name) }

// maxHeaderName is the longest header (or query parameter) name Sesame
// accepts: the Gateway API's limit for HTTPHeaderName, applied to every
// source. Envoy refuses a route table whose query parameter name is over
// 1 KiB, or whose header name is over 16 KiB.
const maxHeaderName = 256

func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// HeaderValue says why Envoy would refuse v as a header value (or
// a path it writes into the request line): NUL, CR and LF end a header, and
// a value may be 16 KiB long. Envoy refuses a configuration holding such a
// value whole, which would take every route of the listener with it.
func HeaderValue(v string) string {
	if problem := ControlChars(v); problem != "" {
		return problem
	}
	if len(v) > maxHeaderValue {
		return fmt.Sprintf("the value is %d bytes long; Envoy takes at most %d.", len(v), maxHeaderValue)
	}
	return ""
}

// ControlChars says why v cannot be a header value or a path: it holds
// NUL, CR or LF, which end a header or a request line, so that no request
// carries it and Envoy may refuse it.
func ControlChars(v string) string {
	// A loop over the bytes, not strings.IndexAny, which builds a set of the
	// characters on every call: this runs for every path and header value.
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == 0 || c == '\r' || c == '\n' {
			return fmt.Sprintf("the value %q holds the control character %q at byte %d; header values and paths cannot.", report.Value(v), c, i)
		}
	}
	return ""
}

// maxHeaderValue is the longest header value Envoy's configuration takes.
const maxHeaderValue = 16384

// Path validates a path prefix or exact path of any origin.
func Path(path string) string {
	switch {
	case !strings.HasPrefix(path, "/"):
		return fmt.Sprintf("%q does not start with \"/\".", report.Value(path))
	case !utf8.ValidString(path):
		return fmt.Sprintf("%q is not valid UTF-8.", report.Value(path))
	case strings.ContainsAny(path, "?#"):
		return fmt.Sprintf("%q holds a query or fragment; conditions match the path only.", report.Value(path))
	case hasDotSegment(path):
		return fmt.Sprintf("%q holds a \".\" or \"..\" segment, which Envoy's path normalisation removes from every request, so it would never match.", report.Value(path))
	}
	return ControlChars(path)
}

// hasDotSegment reports whether path has a segment "." or "..". A prefix may
// end in the middle of a segment ("/a/." is the start of "/a/.well-known"),
// so only segments followed by "/" count.
func hasDotSegment(path string) bool {
	return strings.Contains(path, "/./") || strings.Contains(path, "/../")
}
