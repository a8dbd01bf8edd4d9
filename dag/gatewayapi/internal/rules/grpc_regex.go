// Anchors in GRPCRoute regular expressions.
//
// A RegularExpression method match gives a service expression and a method
// expression, each of which must match a whole name; Sesame joins them into
// one path expression, "/(<service>)/(<method>)", which Envoy matches against
// the whole path. Inside it an anchor can never match: "^" would need the
// start of the path, where the "/" before the service is. So the anchors that
// begin or end a part's match, which say nothing for a whole name anyway, are
// removed; an anchor anywhere else cannot be, and the rule is refused rather
// than left to never match.
//
// The anchors are found on the parsed expression, where each branch of an
// alternation has its own:
//
//	^Get$            Get        (the text as written, less "^" and "$")
//	^Get$|^List$     Get|List   (written anew from the parse)
//	(?i)^get$        (?i:GET)   (written anew: the anchors are not the first
//	                            and last characters)
//	^(Get|List)$     (Get|List)
//	Get|^List        Get|List
//	a^b, (^a)*       refused: the anchor is not at an edge of the match
//
// The text as written is kept whenever a leading "^" and a trailing "$" were
// all there was to remove, so that the route reads as its author wrote it;
// otherwise the parse is written back (syntax.Regexp.String), which means
// the same but may be spelled differently. So is an expression that quotes
// with "\Q" (see quotes), anchored or not.

package rules

import (
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/internal/re2"
)

// unanchor returns expr, an RE2 expression that must match a whole name,
// without the anchors that begin or end its match (see the file comment),
// as it can stand in the combined path expression. ok is false when expr
// does not parse, or when an anchor is left elsewhere, where it would
// never match inside the path.
func unanchor(expr string) (out string, ok bool) {
	re, err := re2.Parse(expr)
	if err != nil {
		return "", false
	}
	if !hasAnchor(re) {
		if !quotes(expr) {
			return expr, true
		}
		return re.String(), true
	}
	if dropEdgeAnchors(re, true, true) {
		return "", false
	}
	// Every anchor was at an edge. When they were just a leading "^" and a
	// trailing "$", the text without them has none left: keep it. (An
	// escaped "\$" leaves a trailing "\", which does not parse.)
	if s := strings.TrimSuffix(strings.TrimPrefix(expr, "^"), "$"); s != "" && !quotes(s) {
		if t, err := re2.Parse(s); err == nil && !hasAnchor(t) {
			return s, true
		}
	}
	return re.String(), true
}

// quotes reports whether expr may quote text with "\Q", which, without an
// "\E", quotes to the end of the expression: in the path expression that
// would take the ")" closing the part, and what follows, as literal text.
// Such an expression is written anew, which spells literals with escapes.
func quotes(expr string) bool { return strings.Contains(expr, `\Q`) }

// isAnchor reports whether op is an anchor unanchor removes: the start or
// end of the text or, with the m flag, of a line. Word boundaries match
// inside the path as they do in the name, and stay.
func isAnchor(op syntax.Op) bool { return isBeginAnchor(op) || isEndAnchor(op) }

func isBeginAnchor(op syntax.Op) bool { return op == syntax.OpBeginText || op == syntax.OpBeginLine }

func isEndAnchor(op syntax.Op) bool { return op == syntax.OpEndText || op == syntax.OpEndLine }

func hasAnchor(re *syntax.Regexp) bool {
	return isAnchor(re.Op) || slices.ContainsFunc(re.Sub, hasAnchor)
}

// dropEdgeAnchors replaces, in re, the begin anchors that can only match
// where re's match starts, when start says that is where the whole match
// starts, and likewise the end anchors with end, by empty matches, which
// it then removes from concatenations. It reports whether any anchor is
// left.
//
// An anchor is at the start of a concatenation's match when only begin
// anchors (or empty matches) come before it, and at the end when only end
// anchors come after;
// each branch of an alternation, and a capture, starts and ends where the
// alternation or capture does; anything else (a repetition, say) puts its
// anchors at no edge.
func dropEdgeAnchors(re *syntax.Regexp, start, end bool) (left bool) {
	switch {
	case isBeginAnchor(re.Op) && start, isEndAnchor(re.Op) && end:
		*re = syntax.Regexp{Op: syntax.OpEmptyMatch, Flags: re.Flags}
		return false
	case isAnchor(re.Op):
		return true
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpAlternate:
		for _, sub := range re.Sub {
			left = dropEdgeAnchors(sub, start, end) || left
		}
		return left
	case syntax.OpConcat:
		first, last := 0, len(re.Sub)-1
		for first < last && (isBeginAnchor(re.Sub[first].Op) || re.Sub[first].Op == syntax.OpEmptyMatch) {
			first++
		}
		for last > 0 && (isEndAnchor(re.Sub[last].Op) || re.Sub[last].Op == syntax.OpEmptyMatch) {
			last--
		}
		for i, sub := range re.Sub {
			left = dropEdgeAnchors(sub, start && i <= first, end && i >= last) || left
		}
		re.Sub = slices.DeleteFunc(re.Sub, func(sub *syntax.Regexp) bool { return sub.Op == syntax.OpEmptyMatch })
		switch len(re.Sub) {
		case 0:
			*re = syntax.Regexp{Op: syntax.OpEmptyMatch, Flags: re.Flags}
		case 1:
			*re = *re.Sub[0]
		}
		return left
	}
	for _, sub := range re.Sub {
		left = dropEdgeAnchors(sub, false, false) || left
	}
	return left
}
