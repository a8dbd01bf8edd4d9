// Compiling one list field of a rule: "*", "-" anti-selection, and what an
// empty list means.
//
// Every field of a DispatchPolicyRule is a list of strings, and the seed
// gives all of them the same surface syntax: "*" matches every value (other
// entries beside it are ignored), an entry starting with "-" excludes a value
// (where the field allows it), a list mixing positive and negated entries
// ignores the negated ones, and an empty list means either nothing or
// everything depending on the field. parseList reads that syntax once and
// returns a list: one of four modes and the values it names, "-" stripped,
// sorted and deduplicated. The internal form differs from the surface syntax
// in that every list is exactly one of "none", "all", "listed" or
// "unlisted", so the matcher never looks at "*" or "-" again.
//
// Worked example, verbs ["get", "-list", "get", "watch"]:
//
//	[0] "get"    positive; first "get" seen at [0]
//	[1] "-list"  negated
//	[2] "get"    positive; repeats [0]      -> Warning "repeats verbs[0]"
//	[3] "watch"  positive
//	no "*"; positive entries exist, so the negated ones are dropped
//	                                        -> Warning "mixes positive and negated entries"
//	result: listed {get, watch}
//
// and ["-pods", "-deployments"] (resources) is unlisted {deployments, pods}:
// every resource except those two. Entry syntax a field adds of its own
// (resources' "{resource}/{subresource}", nonResourceURLs' trailing "*") is
// checked by the field's check function, which sees each value with its
// "-" removed.

package dispatch

import (
	"fmt"
	"slices"
	"strings"
)

// listMode is what a compiled list matches.
type listMode uint8

const (
	matchNone     listMode = iota // an empty list in a field where that means nothing
	matchAll                      // "*", or an empty list where that means everything
	matchListed                   // the values listed
	matchUnlisted                 // every value except those listed (anti-selection)
)

// list is the compiled form of one list field; see the file comment.
type list struct {
	mode   listMode
	values []string // sorted and distinct; empty unless mode is matchListed or matchUnlisted
	// prefixes select the values that start with them: entries ending in
	// "*", without it, in fields that take them (users, userGroups).
	prefixes []string // sorted and distinct; empty unless mode is matchListed or matchUnlisted
}

// field describes the syntax of one list field.
type field struct {
	name          string // as in JSON, for messages: "verbs"
	emptyMatchAll bool   // an empty list matches everything rather than nothing
	negatable     bool   // entries may start with "-"
	// negatedBeside: negated entries are accepted only beside plain ones,
	// which the mixed-list rule then keeps alone (nonResourceURLs, which
	// KubeGateway's users write so); a list of only negated entries is
	// rejected.
	negatedBeside bool
	emptyValue    bool // "" is a value (the core API group)
	// prefix: an entry ending in "*" selects the values starting with the
	// rest ("user-*"), as KubeGateway reads users and userGroups.
	prefix bool
	// check, if set, returns why value (with any "-" removed) is not
	// allowed, or "". Without it a value must not contain '*'.
	check func(value string) string
}

// parseList compiles the entries of field f at path (for example
// "policies[0].rules[1].verbs"), appending warnings to *warns and errors to
// *errs.
func parseList(path string, entries []string, f *field, warns *[]Warning, errs *[]error) list {
	var pos, neg []string             // as written, "-" removed: for messages
	var posExact, negExact []string   // values
	var posPrefix, negPrefix []string // prefixes, "*" removed
	all := false
	first := make(map[string]int, len(entries))
	for i, e := range entries {
		at := fmt.Sprintf("%s[%d]", path, i)
		if j, ok := first[e]; ok {
			*warns = append(*warns, Warning{at, fmt.Sprintf("%q repeats %s[%d]", e, f.name, j)})
			continue
		}
		first[e] = i
		if e == star {
			all = true
			continue
		}
		v, negated := e, false
		if strings.HasPrefix(e, "-") {
			if !f.negatable && !f.negatedBeside {
				*errs = append(*errs, &Error{at, fmt.Sprintf("%q is not allowed: %s cannot be negated", e, f.name)})
				continue
			}
			v, negated = e[1:], true
		}
		if reason := checkValue(v, negated, f); reason != "" {
			*errs = append(*errs, &Error{at, fmt.Sprintf("%q is not allowed: %s", e, reason)})
			continue
		}
		prefix, isPrefix := strings.CutSuffix(v, star)
		isPrefix = isPrefix && f.prefix
		switch {
		case negated && isPrefix:
			neg, negPrefix = append(neg, v), append(negPrefix, prefix)
		case negated:
			neg, negExact = append(neg, v), append(negExact, v)
		case isPrefix:
			pos, posPrefix = append(pos, v), append(posPrefix, prefix)
		default:
			pos, posExact = append(pos, v), append(posExact, v)
		}
	}
	switch {
	case all:
		if len(entries) > 1 {
			*warns = append(*warns, Warning{path, fmt.Sprintf("%q matches every value, so the other entries are ignored", star)})
		}
		return list{mode: matchAll}
	case len(pos) > 0:
		if len(neg) > 0 {
			*warns = append(*warns, Warning{path, fmt.Sprintf(
				"mixes positive and negated entries, so the negated ones (%s) are ignored and the list matches only %s",
				quoteAll(neg, "-"), quoteAll(pos, ""))})
		}
		return list{mode: matchListed, values: sorted(posExact), prefixes: sorted(posPrefix)}
	case len(neg) > 0 && !f.negatable:
		*errs = append(*errs, &Error{path, fmt.Sprintf("%s cannot be negated: negated entries (%s) are only accepted, and ignored, beside plain ones",
			f.name, quoteAll(neg, "-"))})
		return list{mode: matchNone}
	case len(neg) > 0:
		return list{mode: matchUnlisted, values: sorted(negExact), prefixes: sorted(negPrefix)}
	case len(entries) > 0:
		// Every entry was rejected; the errors say why.
		return list{mode: matchNone}
	case f.emptyMatchAll:
		return list{mode: matchAll}
	}
	return list{mode: matchNone}
}

// checkValue returns why v (an entry with any "-" removed) is not allowed in
// field f, or "".
func checkValue(v string, negated bool, f *field) string {
	switch {
	case negated && v == star:
		return fmt.Sprintf("%q cannot be negated", star)
	case v == "" && !f.emptyValue:
		return "entries must not be empty (only apiGroups has an empty value, the core group)"
	case f.check != nil:
		return f.check(v)
	case f.prefix:
		if i := strings.Index(v, star); i >= 0 && i != len(v)-1 {
			return fmt.Sprintf("%q is only allowed as a whole entry or at the end of one (a prefix: \"user-*\")", star)
		}
	case strings.Contains(v, star):
		return fmt.Sprintf("%q is only allowed as a whole entry", star)
	}
	return ""
}

// checkResource is the check of resources: "{resource}",
// "{resource}/{subresource}" or "*/{subresource}".
func checkResource(v string) string {
	res, sub, hasSub := strings.Cut(v, "/")
	switch {
	case hasSub && sub == star:
		return "{resource}/* is not supported; list each {resource}/{subresource}, or use */{subresource} for a subresource of every resource"
	case strings.Contains(sub, "/"):
		return "a resource is {resource}, {resource}/{subresource} or */{subresource}"
	case res == "" || hasSub && sub == "":
		return "the resource and the subresource must not be empty"
	case strings.Contains(sub, star) || res != star && strings.Contains(res, star):
		return fmt.Sprintf("%q is only allowed as a whole entry or as */{subresource}", star)
	}
	return ""
}

// checkUser is the check of users: "*" only at the end of a name (a
// prefix), with a hint for the likeliest reason to try one elsewhere.
func checkUser(v string) string {
	if i := strings.Index(v, star); i >= 0 && i != len(v)-1 {
		return fmt.Sprintf("%q is only allowed as a whole entry or at the end of one (a prefix: %q); to match a set of service accounts, list their group, such as %q, in userGroups",
			star, "user-*", "system:serviceaccounts:kube-system")
	}
	return ""
}

// sorted returns vs sorted, without repeats.
func sorted(vs []string) []string {
	slices.Sort(vs)
	return slices.Compact(vs)
}

// quoteAll quotes each of vs with prefix, comma-separated.
func quoteAll(vs []string, prefix string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", prefix+v)
	}
	return strings.Join(q, ", ")
}
