// A cache of compiled full-match expressions.
//
// Envoy compiles each safe_regex once, when it loads the route table; the
// model compiled it on every match, which is correct but makes a test that
// sends thousands of requests through hundreds of regex routes spend its
// time in regexp.Compile. The cache keeps the answer of compileFull per
// pattern, including nil for a pattern that does not compile, so matching
// is unchanged.

package envoysim

import (
	"regexp"
	"sync"
)

// fullCache maps a pattern to its *regexp.Regexp from compileFull (nil
// when the pattern is not valid RE2). A compiled Regexp is safe for
// concurrent use.
var fullCache sync.Map

// cachedCompileFull is compileFull, remembered per pattern.
func cachedCompileFull(pattern string) *regexp.Regexp {
	if re, ok := fullCache.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re := compileFull(pattern)
	fullCache.Store(pattern, re)
	return re
}
