// HTTPProxy paths: joining the prefixes of an include chain, and wildcard
// prefixes (design seed 003, "Wildcard Path Routing").
//
// An include's prefix and the prefixes below it are joined by concatenation,
// then every run of "/" becomes one "/". A trailing "/" stays as written,
// since HTTPProxy prefixes compare as strings: "/api" matches "/apis", and
// "/api/" does not.
//
//	include "/api"  + route "/v1"  -> "/api/v1"
//	include "/api/" + route "/v1"  -> "/api/v1"
//	include "/api"  + route "/"    -> "/api/"    (not "/api": as written)
//	include "/api"  + no prefix    -> "/api"
//	include "/"     + route "/foo" -> "/foo"
//
// A route prefix may hold "*" wildcards. Each "*" matches one or more
// characters of a single path segment (anything but "/"); after the last
// literal character the usual prefix semantics apply. The prefix must start
// with "/" and must not end with "*", and two "*" may not touch (each
// already matches one or more characters; "**" would only mean "two or
// more", which nobody writes on purpose). Wildcards are not allowed in
// includes: two includes "/blog/*/info" and "/blog/tech/info" would leave
// no one with authority over "/blog/tech/info" (seed 003, "Proper
// Delegation").
//
// Worked example, "/app/*/foo":
//
//	"/app/bar/foo"            "*" takes "bar", then "/foo"           -> match
//	"/app/bar/foo/something"  the prefix ends after "/foo"           -> match
//	"/app/bar/foobar"         string prefix semantics after "/foo"   -> match
//	"/app/foo"                "*" takes "foo", then "/foo" is missing -> no match
//	"/app/a/b/foo"            "*" cannot take "a/b"                  -> no match
//
// Envoy matches it as the anchored RE2 expression (?s)^/app/[^/]+/foo.*$
// against the path without its query (safe_regex on the route's path); (?s)
// lets the final ".*" take any byte, so that the expression means exactly
// "starts with" there.
//
// The surface string is parsed once into a wildcardPattern, a list of
// literal runs separated by single wildcards: "/app/*/foo" is
// ["/app/", "/foo"]. Every algorithm here (validation, the regular
// expression, ordering) reads that form.

package httpproxy

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/re2"
	"github.com/projectsesame/sesame/internal/report"
)

// joinPrefixes joins the prefixes of an include chain and a route, as the
// file comment describes. Empty parts add nothing; the result is "" when
// every part is empty.
func joinPrefixes(parts ...string) string {
	var b strings.Builder
	var last byte
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			if p[i] == '/' && last == '/' {
				continue
			}
			last = p[i]
			b.WriteByte(last)
		}
	}
	return b.String()
}

// wildcardPattern is a parsed path prefix: literal runs, each separated from
// the next by one "*". A prefix without wildcards has one run.
type wildcardPattern []string

// hasWildcard reports whether the pattern has a "*".
func (p wildcardPattern) hasWildcard() bool { return len(p) > 1 }

// parsePrefix parses and validates a route's path prefix (after joining),
// returning why it cannot be served. Paths must start with "/", and hold no
// query, fragment or dot-segment: Envoy normalises request paths, so a
// prefix with "/../" could never match.
func parsePrefix(prefix string) (wildcardPattern, string) {
	if problem := check.Path(prefix); problem != "" {
		return nil, problem
	}
	p := wildcardPattern(strings.Split(prefix, "*"))
	switch {
	case !p.hasWildcard():
	case strings.HasSuffix(prefix, "*"):
		return nil, fmt.Sprintf("prefix %q ends with \"*\": a wildcard must be followed by a literal, e.g. \"/app/*/foo\" (seed 003).", report.Value(prefix))
	case strings.Contains(prefix, "**"):
		return nil, fmt.Sprintf("prefix %q has two \"*\" in a row; one \"*\" already matches one or more characters.", report.Value(prefix))
	default:
		n, err := re2.Size(p.regex())
		if err != nil {
			return nil, fmt.Sprintf("the prefix's regular expression is refused: %v.", report.RegexError(err))
		}
		if n > re2.EnvoyLimit {
			return nil, fmt.Sprintf("prefix %q becomes a regular expression of %d instructions; Envoy refuses more than %d (use fewer wildcards or a shorter prefix).", report.Value(prefix), n, re2.EnvoyLimit)
		}
	}
	return p, ""
}

// regex is the anchored RE2 expression that matches exactly the paths the
// pattern matches: literals quoted, each "*" one or more non-"/" characters,
// and anything after the last literal.
func (p wildcardPattern) regex() string {
	var b strings.Builder
	b.WriteString("(?s)^")
	for i, lit := range p {
		if i > 0 {
			b.WriteString("[^/]+")
		}
		b.WriteString(regexp.QuoteMeta(lit))
	}
	b.WriteString(".*$")
	return b.String()
}

// String is the surface syntax.
func (p wildcardPattern) String() string { return strings.Join(p, "*") }
