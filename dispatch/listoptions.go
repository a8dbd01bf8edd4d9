// The query of a get without a name: list or watch, and the name a
// fieldSelector may give it.
//
// Kubernetes decides this by decoding the query into its list options, and
// the result depends on whether that decoding succeeds, so the rules are
// those of the decoding:
//
//   - The query is read as net/url reads it: pairs split at "&", a pair with
//     a ";" or a bad percent-escape in its key or value skipped, and only the
//     first value of a key used. A query of more than 10000 pairs is read as
//     empty, which is net/url's default limit.
//   - watch is true for any value but "0" and, in any case, "false". If the
//     options do not decode, Kubernetes reads the value again and compares
//     it lower-cased, which differs only for a value such as "falſe" (with
//     U+017F, which folds to "s"): that is a watch if the options do not
//     decode.
//   - The options decode unless labelSelector does not parse, fieldSelector
//     does not parse, or limit or timeoutSeconds is not a decimal integer
//     ("" is not). Kubernetes answers such a list with 400 Bad Request.
//   - A fieldSelector is terms separated by unescaped commas; a term is
//     <field><op><value> with op the first "!=", "==" or "=" in it, and the
//     value escapes "\", "," and "=" with a backslash (no other escape, and
//     no unescaped "," or "="). If the options decode and some "=" or "=="
//     term has the field metadata.name, the smallest such term (Kubernetes
//     sorts the terms) gives the name, unless the name is "." or "..", or
//     contains "/" or "%", which cannot be a path segment.
//
// Worked example: "watch=TRUE&fieldSelector=metadata.name%3Dweb%2Cstatus.phase!%3DFailed"
// is watch (TRUE is not false), and its fieldSelector
// "metadata.name=web,status.phase!=Failed" has the terms
// "metadata.name=web" and "status.phase!=Failed": the name is web. Add
// "&limit=ten" and the options no longer decode: still watch, but no name.
//
// The label selector grammar is apimachinery's: the options are checked
// with labels.Parse, and only when the answer depends on them.

package dispatch

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/labels"
)

// maxQueryParams is net/url's default limit on the number of query pairs;
// above it, url.URL.Query returns no values at all.
const maxQueryParams = 10000

// listOption is a query parameter that listVerb reads.
type listOption uint8

const (
	optWatch listOption = iota
	optFieldSelector
	optLabelSelector
	optLimit
	optTimeoutSeconds
	numListOptions
)

// listOptionNames are the query keys of the list options, by listOption.
var listOptionNames = [numListOptions]string{"watch", "fieldSelector", "labelSelector", "limit", "timeoutSeconds"}

// listQuery is the first value of each list option in a query, still
// percent-encoded, if the query has the option, and what listVerb found in
// the fieldSelector.
type listQuery struct {
	raw [numListOptions]string
	has [numListOptions]bool

	fieldSelectorName                      string
	fieldSelectorFound, fieldSelectorValid bool
}

// listVerb returns the verb ("list" or "watch") of a get without a name
// whose URL has the (encoded) query, and the name its fieldSelector gives,
// or "".
func listVerb(query string) (verb, name string) {
	q := readListQuery(query)
	if q.has[optFieldSelector] {
		q.fieldSelectorName, q.fieldSelectorFound, q.fieldSelectorValid = fieldSelectorName(q.value(optFieldSelector))
	}
	verb = "list"
	if q.has[optWatch] {
		v := q.value(optWatch)
		watch := v != "0" && !strings.EqualFold(v, "false")
		if fallback := v != "0" && !lowerIsFalse(v); fallback != watch && !q.decodes() {
			watch = fallback
		}
		if watch {
			verb = "watch"
		}
	}
	if q.fieldSelectorFound && isPathSegmentName(q.fieldSelectorName) && q.decodes() {
		name = q.fieldSelectorName
	}
	return verb, name
}

// readListQuery reads the list options of a query as url.ParseQuery does.
func readListQuery(query string) (q listQuery) {
	if strings.Count(query, "&")+1 > maxQueryParams {
		return q
	}
	for query != "" {
		var pair string
		pair, query, _ = strings.Cut(query, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		o, ok := optionOf(k)
		if !ok || q.has[o] || !validEscapes(v) {
			continue
		}
		q.raw[o], q.has[o] = v, true
	}
	return q
}

// optionOf returns the list option whose name the encoded key k is.
func optionOf(k string) (listOption, bool) {
	if strings.ContainsAny(k, "%+") {
		var err error
		if k, err = url.QueryUnescape(k); err != nil {
			return 0, false
		}
	}
	for o, name := range listOptionNames {
		if k == name {
			return listOption(o), true
		}
	}
	return 0, false
}

// validEscapes reports whether url.QueryUnescape accepts s: every "%" is
// followed by two hexadecimal digits.
func validEscapes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// value returns the decoded value of option o, which q has.
func (q *listQuery) value(o listOption) string {
	v := q.raw[o]
	if !strings.ContainsAny(v, "%+") {
		return v
	}
	v, _ = url.QueryUnescape(v) // readListQuery checked the escapes
	return v
}

// decodes reports whether Kubernetes can decode q into its list options;
// listVerb has read the fieldSelector.
func (q *listQuery) decodes() bool {
	if q.has[optLabelSelector] {
		if _, err := labels.Parse(q.value(optLabelSelector)); err != nil {
			return false
		}
	}
	if q.has[optFieldSelector] && !q.fieldSelectorValid {
		return false
	}
	for _, o := range [...]listOption{optLimit, optTimeoutSeconds} {
		if q.has[o] {
			if _, err := strconv.ParseInt(q.value(o), 10, 64); err != nil {
				return false
			}
		}
	}
	return true
}

// lowerIsFalse reports whether strings.ToLower(v) is "false", without
// allocating for ASCII v.
func lowerIsFalse(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf {
			return strings.ToLower(v) == "false"
		}
	}
	return strings.EqualFold(v, "false")
}

// fieldSelectorName reads the field selector sel: valid reports whether it
// parses, and found whether it requires metadata.name to equal name.
func fieldSelectorName(sel string) (name string, found, valid bool) {
	var best, value string // the term that gives the name, and its value
	for sel != "" {
		var term string
		term, sel = cutTerm(sel)
		if term == "" {
			continue
		}
		field, op, rhs, ok := splitTerm(term)
		if !ok || !validSelectorValue(rhs) {
			return "", false, false
		}
		if field == "metadata.name" && op != "!=" && (!found || term < best) {
			best, value, found = term, rhs, true
		}
	}
	if !found {
		return "", false, true
	}
	return unescapeSelectorValue(value), true, true
}

// cutTerm returns the first term of a field selector, up to the first
// comma not escaped by a backslash, and the rest after that comma.
// Looking at bytes is enough: "\" and "," are ASCII, and in UTF-8 (valid or
// not) no multi-byte rune contains an ASCII byte.
func cutTerm(sel string) (term, rest string) {
	for i := 0; i < len(sel); i++ {
		switch sel[i] {
		case '\\':
			i++
		case ',':
			return sel[:i], sel[i+1:]
		}
	}
	return sel, ""
}

// splitTerm splits a term at its first operator: at the first position
// where "!=", "==" or "=" starts, tried in that order.
func splitTerm(term string) (field, op, value string, ok bool) {
	for i := 0; i < len(term); i++ {
		switch {
		case strings.HasPrefix(term[i:], "!="):
			return term[:i], "!=", term[i+2:], true
		case strings.HasPrefix(term[i:], "=="):
			return term[:i], "==", term[i+2:], true
		case term[i] == '=':
			return term[:i], "=", term[i+1:], true
		}
	}
	return "", "", "", false
}

// validSelectorValue reports whether v is a valid field selector value:
// "\", "," and "=" are escaped with a backslash, and nothing else is.
func validSelectorValue(v string) bool {
	slash := false
	for _, c := range v {
		switch {
		case slash:
			if c != '\\' && c != ',' && c != '=' {
				return false
			}
			slash = false
		case c == '\\':
			slash = true
		case c == ',' || c == '=':
			return false
		}
	}
	return !slash
}

// unescapeSelectorValue removes the escapes from a valid field selector
// value. As Kubernetes does, a value with an escape is rebuilt rune by
// rune, so that invalid UTF-8 in it becomes U+FFFD; one without is
// returned as it is.
func unescapeSelectorValue(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	b.Grow(len(v))
	slash := false
	for _, c := range v {
		if c == '\\' && !slash {
			slash = true
			continue
		}
		slash = false
		b.WriteRune(c)
	}
	return b.String()
}

// isPathSegmentName reports whether name can be a path segment: it is not
// "." or "..", and has no "/" or "%".
func isPathSegmentName(name string) bool {
	return name != "." && name != ".." && !strings.ContainsAny(name, "/%")
}
