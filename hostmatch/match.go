// Matching a request host against a hostname.
//
// A wildcard hostname "*.example.com" is matched by splitting the host into
// the part the wildcard stands for and a suffix, and comparing the suffix with
// the hostname minus its "*". The suffix keeps its leading '.', which is what
// makes the comparison respect label boundaries: "xexample.com" does not end
// in ".example.com". The modes differ only in what the wildcard part may be.
//
// Worked example, pattern "*.example.com", suffix ".example.com" (12 bytes):
//
//	host "a.b.Example.com"  len 15 > 12
//	split at 15-12 = 3      wildcard part "a.b", rest ".Example.com"
//	rest equals suffix      ASCII case-insensitively: yes
//	Suffix mode             the wildcard part is not empty: match
//	SingleLabel mode        the wildcard part "a.b" contains '.': no match
//
// Precise hostnames match only themselves, ignoring ASCII case. Case folding
// is ASCII only on purpose: strings.EqualFold would also fold the Kelvin sign
// U+212A to 'k', and a Host header is not Unicode text.
//
// The request host must already be free of a port and of a trailing dot;
// HostOfAuthority turns an HTTP :authority or Host value into such a host.
// Nothing here allocates, because Match runs once per request in tests that
// simulate Envoy and per (route, host) pair when Sesame resolves conflicts.

package hostmatch

import (
	"strconv"
	"strings"
)

// Mode selects what a wildcard hostname such as "*.example.com" matches.
// Any value other than Suffix behaves as SingleLabel, the stricter mode, so
// that a corrupt Mode makes a wildcard match less, never more.
type Mode uint8

const (
	// Suffix is the Gateway API v1 rule: "*.example.com" matches any host
	// that ends in ".example.com" with one or more labels before it
	// ("a.example.com", "a.b.example.com"), never "example.com".
	Suffix Mode = iota
	// SingleLabel is the rule of seeds 000/001 and HTTPProxy: the wildcard
	// matches exactly one label ("a.example.com", not "a.b.example.com").
	SingleLabel
)

// String returns "Suffix" or "SingleLabel", or "Mode(N)" for other values.
func (m Mode) String() string {
	switch m {
	case Suffix:
		return "Suffix"
	case SingleLabel:
		return "SingleLabel"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// IsWildcard reports whether h is a wildcard hostname, that is, whether it
// starts with "*.".
func IsWildcard(h string) bool {
	return strings.HasPrefix(h, "*.")
}

// Match reports whether the request host is matched by pattern under mode m.
//
// pattern is a valid hostname, or "" meaning "any host". A precise pattern
// matches only itself; a wildcard matches as its Mode says. host has no port
// and no trailing dot (see HostOfAuthority) and is compared ASCII
// case-insensitively, because the HTTP Host header is case-insensitive.
//
// Match does not allocate, and it does not panic on any strings, valid or
// not; for invalid patterns the answer is unspecified.
func Match(pattern, host string, m Mode) bool {
	if pattern == "" {
		return true
	}
	if !IsWildcard(pattern) {
		return equalFoldASCII(pattern, host)
	}
	suffix := pattern[1:] // ".example.com": keeps the '.' so labels line up
	if len(host) <= len(suffix) {
		return false // the wildcard must stand for at least one byte
	}
	wild := host[:len(host)-len(suffix)]
	if !equalFoldASCII(host[len(wild):], suffix) {
		return false
	}
	if m == Suffix {
		return true
	}
	return strings.IndexByte(wild, '.') < 0
}

// equalFoldASCII reports whether a and b are equal when ASCII upper-case
// letters are mapped to lower case. Other bytes must be equal.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// HostOfAuthority returns the host part of an HTTP :authority or Host value,
// ready for Match: a port is stripped ("foo.com:8080" -> "foo.com",
// "[::1]:80" -> "[::1]") and then one trailing dot is removed
// ("foo.com." -> "foo.com", "foo.com.:80" -> "foo.com"). The result is a
// substring of authority, so nothing is allocated.
//
// A port is the text after the last ':' when it is empty or all digits
// (RFC 3986 allows an empty port) and the ':' is not inside an IPv6 literal's
// brackets. Anything else after a ':' is left alone, so a malformed value
// such as "foo.com:http" matches no hostname rather than being guessed at.
// The brackets of an IPv6 literal are kept, so that it can never equal a
// hostname.
func HostOfAuthority(authority string) string {
	host := authority
	if colon := strings.LastIndexByte(host, ':'); colon >= 0 && allDigits(host[colon+1:]) {
		// In "[::1]" the last ':' is inside the brackets; in "[::1]:80" it
		// follows the ']'.
		if host[0] != '[' || (colon > 0 && host[colon-1] == ']') {
			host = host[:colon]
		}
	}
	// A fully qualified "foo.com." names the same host as "foo.com".
	return strings.TrimSuffix(host, ".")
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
