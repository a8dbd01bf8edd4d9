// What a collection GET's query means to Kubernetes, as RE2 regexes on
// :path: list or watch, and the name a fieldSelector gives.
//
// Kubernetes decodes the query (dispatch/listoptions.go): pairs split at
// '&', a pair holding ';' or a bad escape skipped, keys and values
// percent-decoded with '+' as a space, the first remaining pair of each key
// used. Envoy sees the query undecoded, and its query_parameters matchers
// take the first pair of a name as written and cannot be inverted, so the
// translation reads the query with regexes on :path instead, in two steps.
//
// First, conditions under which the regexes could read it differently from
// Kubernetes make the query unclear, and a request with an unclear query is
// answered by a guard route (guard.go) instead of being forwarded: a ';'
// anywhere, a '%' in a key (it might decode to "watch"), a key that is used
// more than once, or a '%' or '+' in a value the decision reads. Second, in
// a clear query every key is as written and used once, and the values read
// are as written, so a regex that finds "the pair of key k" finds the one
// Kubernetes uses. Worked example, the list/watch decision:
//
//	?watch=1&limit=5        watch present, not 0 or false     → watch
//	?limit=5                watch absent                      → list
//	?watch=FALSE            0 or false in any case            → list
//	?watch                  present, value ""                 → watch
//	?watch=1&watch=0        key used twice                    → unclear
//	?w%61tch=1              '%' in a key                      → unclear
//	?watch=tr%75e           '%' in the value                  → unclear
//
// The name of a list or watch is the value of a fieldSelector term
// "metadata.name=<name>" (or "=="), but only if the whole list options
// decode, which depends on labelSelector parsing and on limit and
// timeoutSeconds being integers. The regexes read the common case exactly:
// a fieldSelector that does not mention metadata.name gives no name, and
// one that is exactly metadata.name=<name>, its '=' written as '=' or %3D
// and <name> made of unreserved characters and ':' (or %3A), gives <name>
// unless limit or timeoutSeconds is not an integer. Anything else that
// could give a name is unclear: a fieldSelector mentioning metadata.name in
// another form, a labelSelector beside a name, an integer too long to
// judge (19 digits and more), or an escape in a fieldSelector that could
// spell part of "metadata.name" (one of a lower-case letter or '.').
//
// A query of more than 10000 pairs, which Kubernetes reads as empty, cannot
// be recognised by a regex of Envoy's size; such a query is read as
// written. Translate reports this once for every cluster whose routes read
// the query.

package envoy

import (
	"regexp"
	"strings"
)

// The character classes of a query in the guarded domain.
const (
	queryStart = `[!->@-~]*\?`                     // the path and the '?'
	pairStart  = queryStart + `(?:[!-~]*&)?`       // ... and any pairs before the one read
	pairEnd    = `(?:&[!-~]*)?`                    // the pairs after it
	valueChar  = `[!-%'-~]`                        // a byte of a value: anything but '&'
	keyChar    = `[!-%'-<>-~]`                     // a byte of a key: anything but '&' and '='
	nonDigit   = `[!-%'-/:-~]`                     // a value byte that is not a digit
	nonSign    = `[!-%'-,./:-~]`                   // ... nor '-'
	nonHex     = "[!-/:-@G-`g-~]"                  // a printable byte that is not a hex digit
	nameChars  = `(?:[-.0-:A-Z_a-z~]|%3[Aa])`      // a byte of a simple metadata.name value
	nameIsOp   = `metadata\.name(?:=|%3[Dd]){1,2}` // metadata.name= or ==, '=' written or escaped
)

// present is the condition "the query has key k".
func present(k string) cond {
	return pathCond(pairStart + regexp.QuoteMeta(k) + `(?:[=&]` + anyRest + `)?`)
}

// repeated is the condition "the query has key k more than once".
func repeated(k string) cond {
	q := regexp.QuoteMeta(k)
	return pathCond(pairStart + q + `(?:=` + valueChar + `*)?&(?:` + anyRest + `&)?` + q + `(?:[=&]` + anyRest + `)?`)
}

// valueIs is the condition "the query has key k with a value matching v".
func valueIs(k, v string) cond {
	return pathCond(pairStart + regexp.QuoteMeta(k) + `=` + v + pairEnd)
}

// valueOrBareIs is valueIs, where a key without '=' has the value "" and
// v matches it.
func valueOrBareIs(k, v string) cond {
	return pathCond(pairStart + regexp.QuoteMeta(k) + `(?:=` + v + `)?` + pairEnd)
}

var (
	// queryUnclear: a ';', or a '%' in a key.
	queryUnclear = pathCond(queryStart + `(?:` + anyRest + `;` + anyRest + `|(?:` + valueChar + `*&)*` + keyChar + `*%` + anyRest + `)`)

	watchPresent = present("watch")
	// watchFalse: the watch value is 0 or false, in any case.
	watchFalse = valueIs("watch", `(?:0|[Ff][Aa][Ll][Ss][Ee])`)

	// fieldSelectorEscape: the fieldSelector has an escape that is not
	// valid, or that decodes to a lower-case letter or '.'.
	fieldSelectorEscape = pathCond(pairStart + `fieldSelector=` + valueChar + `*%(?:(?:[67][0-9A-Fa-f]|2[Ee])` + anyRest +
		`|[0-9A-Fa-f]?(?:` + nonHex + anyRest + `)?)`)
	// fieldSelectorMentionsName: the fieldSelector mentions metadata.name.
	fieldSelectorMentionsName = pathCond(pairStart + `fieldSelector=` + valueChar + `*metadata\.name` + anyRest)
	// fieldSelectorSimple: the fieldSelector is metadata.name=<name>, simply
	// written.
	fieldSelectorSimple = valueIs("fieldSelector", nameIsOp+nameChars+`*`)

	labelSelectorPresent = present("labelSelector")
)

// valueUnclear is the condition "key k's value has a '%' or a '+'".
func valueUnclear(k string) cond {
	return valueIs(k, valueChar+`*[%+]`+valueChar+`*`)
}

// integerUnclear is the condition "key k's value has a '%' or a '+', or is
// an integer of 19 digits or more, which may or may not fit in 64 bits".
func integerUnclear(k string) cond {
	return valueIs(k, `(?:`+valueChar+`*[%+]`+valueChar+`*|-?[0-9]{19}[0-9]*)`)
}

// notInteger is the condition "key k is there, and its value is not an
// integer" ("" and "-" are not). The integers are -?[0-9]+; the rest are
// "", "-", and a string whose first byte that breaks that pattern is a
// non-digit after "-" or after digits, or a non-digit other than '-' at
// the start.
func notInteger(k string) cond {
	return valueOrBareIs(k, `(?:-?|(?:-|-?[0-9]+)`+nonDigit+valueChar+`*|`+nonSign+valueChar+`*)`)
}

// queryPart is what a case reads from the query: exact holds where the
// query is clear and R matches, unclear lists the conditions under which
// the query cannot be read at all, and undecided holds where the query is
// clear but the regexes cannot tell whether R matches.
type queryPart struct {
	exact, undecided dnf
	unclear          []cond
}

// both is the query part of a case that reads two things: each must hold.
func both(a, b queryPart) queryPart {
	return queryPart{
		exact:     and(a.exact, b.exact),
		undecided: or(and(a.undecided, or(b.exact, b.undecided)), and(a.exact, b.undecided)),
		unclear:   append(append([]cond(nil), a.unclear...), b.unclear...),
	}
}

// listWatchPart is the query part of a collection GET for verbs: whether
// it is a list or a watch matters only if verbs select one and not the
// other.
func listWatchPart(list, watch bool) queryPart {
	switch {
	case list && watch:
		return queryPart{exact: always}
	case !list && !watch:
		return queryPart{}
	}
	p := queryPart{unclear: []cond{queryUnclear, repeated("watch"), valueUnclear("watch")}}
	if watch {
		p.exact = and(is(watchPresent), isNot(watchFalse))
	} else {
		p.exact = or(isNot(watchPresent), is(watchFalse))
	}
	return p
}

// fieldSelectorNamePart is the query part of a collection GET for the
// names selected by names (not All): the name is the fieldSelector's, read
// as the file comment says.
func fieldSelectorNamePart(names nameSelection) queryPart {
	p := queryPart{unclear: []cond{queryUnclear, repeated("fieldSelector"), fieldSelectorEscape, repeated("limit"), repeated("timeoutSeconds")}}
	// The names a simple fieldSelector can give: "", "." and ".." give no
	// name, and a name with other bytes cannot be written simply.
	var simple []string
	for _, n := range names.values {
		if n != "." && n != ".." && simpleName.MatchString(n) {
			simple = append(simple, n)
		}
	}
	some, none := alternatives(":path", simple, func(g []string) string {
		enc := make([]string, len(g))
		for i, n := range g {
			enc[i] = strings.ReplaceAll(regexp.QuoteMeta(n), ":", `(?::|%3[Aa])`)
		}
		return pairStart + `fieldSelector=` + nameIsOp + `(?:` + strings.Join(enc, "|") + `)` + pairEnd
	})
	decodes := conj{labelSelectorPresent.not(), integerUnclear("limit").not(), integerUnclear("timeoutSeconds").not(),
		notInteger("limit").not(), notInteger("timeoutSeconds").not()}
	if names.negated {
		p.exact = or(
			isNot(fieldSelectorMentionsName),
			and(is(fieldSelectorSimple), none),
			and(some, is(notInteger("limit")), isNot(integerUnclear("limit"))),
			and(some, is(notInteger("timeoutSeconds")), isNot(integerUnclear("timeoutSeconds"))),
		)
	} else {
		p.exact = and(some, dnf{decodes})
	}
	p.undecided = or(
		dnf{conj{fieldSelectorMentionsName, fieldSelectorSimple.not()}},
		and(some, or(is(labelSelectorPresent), is(integerUnclear("limit")), is(integerUnclear("timeoutSeconds")))),
	)
	return p
}

// simpleName matches the names a simple fieldSelector can hold.
var simpleName = regexp.MustCompile(`^[-.0-:A-Z_a-z~]*$`)

// nameSelection is a compiled resourceNames list that is not All: the
// names it selects, or, if negated, excludes.
type nameSelection struct {
	values  []string
	negated bool
}
