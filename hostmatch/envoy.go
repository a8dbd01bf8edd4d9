// What Envoy needs to enforce a hostname.
//
// Envoy selects a virtual host by its domains. A domain is a precise host, a
// suffix wildcard "*.example.com", a prefix wildcard "foo.*", or "*" for every
// host, and the longest, most specific one wins; Envoy compares hosts ASCII
// case-insensitively. Envoy's "*.example.com" matches any non-empty prefix,
// so it is exactly a Suffix-mode wildcard: Domain can return the hostname
// unchanged, and "" (no hostname) becomes "*".
//
// A SingleLabel wildcard matches less than Envoy's domain does, so each route
// of such a virtual host also matches the :authority header against a regular
// expression that admits exactly one label before the suffix. Envoy matches a
// header's safe_regex against the whole value, and the value still carries
// the port and any trailing dot, which the regular expression must allow for.
//
// Worked example, "*.example.com":
//
//	Domain:         *.example.com
//	AuthorityRegex: ^[^.:]+\.[eE][xX][aA][mM][pP][lL][eE]\.[cC][oO][mM]\.?(:[0-9]+)?$
//
//	:authority              domain matches   regex matches
//	a.example.com           yes              yes
//	A.EXAMPLE.COM:8080      yes (1)          yes
//	a.example.com.          yes (2)          yes
//	a.b.example.com         yes              no   ('.' in the label)
//	example.com             no               no
//
//	(1) with ignore_port_in_host_matching, see below
//	(2) when the connection manager strips the trailing dot
//	    (strip_trailing_host_dot), as HostOfAuthority does for Match
//
// Letters are spelled as [eE] classes rather than with the (?i) flag because
// RE2 folds case by Unicode rules, under which 'k' also matches the Kelvin
// sign U+212A; with classes the expression accepts exactly the hosts that
// Match accepts. Ports: Sesame sets the RouteConfiguration's
// ignore_port_in_host_matching, so that "foo.com:8080" selects the virtual
// host of "foo.com" while the Host header is forwarded unmodified, as the
// Gateway API requires.

package hostmatch

import (
	"regexp"
	"strings"
)

// Domain returns the Envoy VirtualHost.domains entry for a hostname: "*" for
// "" (every host), otherwise the hostname itself.
//
// Envoy's own wildcard "*.example.com" matches one or more labels, as Suffix
// mode does; SingleLabel callers add AuthorityRegex to each route of the
// virtual host. Ports are not part of the domain: the caller sets
// RouteConfiguration.ignore_port_in_host_matching so that "foo.com:8080"
// selects "foo.com" without rewriting the Host forwarded upstream.
func Domain(hostname string) string {
	if hostname == "" {
		return "*"
	}
	return hostname
}

// AuthorityRegex returns an RE2 regular expression for an Envoy :authority
// header matcher that accepts exactly the :authority values a wildcard
// hostname matches in SingleLabel mode: one label of any characters except
// '.' and ':', then the hostname's suffix compared ASCII case-insensitively,
// then an optional single trailing dot and an optional ":<digits>" port.
//
// For "*.example.com" it returns
//
//	^[^.:]+\.[eE][xX][aA][mM][pP][lL][eE]\.[cC][oO][mM]\.?(:[0-9]+)?$
//
// The expression is anchored, although Envoy matches safe_regex against the
// whole value anyway, so that it means the same in any RE2 matcher.
//
// ok is false, and there is nothing extra to enforce, for precise hostnames
// and "". It is also false for strings Validate rejects, so that the result
// always compiles.
func AuthorityRegex(hostname string) (string, bool) {
	if !IsWildcard(hostname) || Validate(hostname) != nil {
		return "", false
	}
	suffix := hostname[1:] // ".example.com"
	var b strings.Builder
	b.Grow(len(`^[^.:]+`) + 4*len(suffix) + len(`\.?(:[0-9]+)?$`))
	b.WriteString(`^[^.:]+`)
	for i := 0; i < len(suffix); i++ {
		c := suffix[i]
		if 'a' <= c && c <= 'z' {
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(c - ('a' - 'A'))
			b.WriteByte(']')
			continue
		}
		// Validate admits only '.', '-' and digits here; QuoteMeta escapes
		// the '.'.
		b.WriteString(regexp.QuoteMeta(suffix[i : i+1]))
	}
	b.WriteString(`\.?(:[0-9]+)?$`)
	return b.String(), true
}
