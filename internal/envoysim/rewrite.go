// Path rewriting: prefix_rewrite and regex_rewrite, of a RouteAction (the
// path sent upstream) or of a RedirectAction (the path in Location).
//
// Envoy's rewritePathByPrefixOrRegex, with the matched path chosen per path
// specifier (see matchedPath):
//
//   - prefix_rewrite replaces the matched part at the start of the :path and
//     keeps the rest, query included. The matched part is compared ASCII
//     case-insensitively, so a case_sensitive: false route that matched
//     "/API/x" with prefix "/api" rewrites it like "/api/x"; when it is not a
//     prefix at all (a RouteMatch other than the one that matched), the path
//     is left alone. For prefix, path and
//     path_separated_prefix routes the matched part is the configured string;
//     for safe_regex and connect_matcher routes it is the whole path without
//     its query, so the rewrite replaces the path and keeps the query.
//   - regex_rewrite runs RE2's GlobalReplace over the path without its query
//     and fragment, then puts the query back. A result that is empty counts as
//     a failed rewrite, and the path is left alone.
//
// Worked examples:
//
//	prefix "/api", prefix_rewrite "/", path "/api/users?x=1"
//	    "/" + "/users?x=1" = "//users?x=1"  (the proto's note on trailing
//	    slashes: use prefix "/api/" to get "/users?x=1")
//	path_separated_prefix "/api", prefix_rewrite "/v1", path "/api/users"
//	    "/v1" + "/users" = "/v1/users"
//	regex_rewrite {pattern: "^/service/([^/]+)(/.*)$", substitution: "\2/instance/\1"}
//	    "/service/foo/v1/api?x" → "/v1/api/instance/foo?x"
//
// RE2 substitutions write groups as \0 to \9 and a backslash as \\; Go's
// regexp writes them ${0} and \, and needs $ written as $$. substitution
// translates one into the other. A RouteAction's path_rewrite_policy and
// path_rewrite (extension and formatter rewrites) are outside the model and
// leave the path unchanged.

package envoysim

import (
	"regexp"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

// RewritePath returns the path Envoy sends upstream after action's
// prefix_rewrite or regex_rewrite, for a request with :path path (query
// included) that matched the route whose RouteMatch is matched. It returns
// path unchanged when action has neither rewrite, when the matched prefix is
// not a prefix of path, or when the rewrite fails.
func RewritePath(action *routev3.RouteAction, matched *routev3.RouteMatch, path string) string {
	if out, ok := rewritePrefixOrRegex(path, matchedPath(matched, path), action.GetPrefixRewrite(), action.GetRegexRewrite()); ok {
		return out
	}
	return path
}

// rewritePrefixOrRegex applies prefixRewrite (when not empty) or else rx to
// path. ok is false when there is nothing to apply or the rewrite fails.
func rewritePrefixOrRegex(path, matched, prefixRewrite string, rx *matcherv3.RegexMatchAndSubstitute) (out string, ok bool) {
	if prefixRewrite != "" {
		if !hasPrefix(path, matched, true) {
			return "", false
		}
		return prefixRewrite + path[len(matched):], true
	}
	if rx == nil || rx.GetPattern() == nil {
		return "", false
	}
	re, err := regexp.Compile(rx.GetPattern().GetRegex())
	if err != nil {
		return "", false
	}
	pathOnly := removeQueryAndFragment(path)
	rewritten := re.ReplaceAllString(pathOnly, substitution(rx.GetSubstitution()))
	if rewritten == "" {
		return "", false
	}
	return rewritten + path[len(pathOnly):], true
}

// substitution turns an RE2 rewrite string into a Go regexp template:
// \N becomes ${N}, \\ becomes \, and $ becomes $$. Any other backslash is
// kept as written (RE2 would refuse the rewrite string).
func substitution(re2 string) string {
	var b strings.Builder
	for i := 0; i < len(re2); i++ {
		c := re2[i]
		switch {
		case c == '$':
			b.WriteString("$$")
		case c == '\\' && i+1 < len(re2) && '0' <= re2[i+1] && re2[i+1] <= '9':
			b.WriteString("${")
			b.WriteByte(re2[i+1])
			b.WriteString("}")
			i++
		case c == '\\' && i+1 < len(re2) && re2[i+1] == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
