// Dispatch rules as Envoy RouteMatches.
//
// A rule's fields are ANDed and so are a RouteMatch's header matchers, so
// each field becomes matchers of its own: a positive list an RE2
// alternation of quoted values, an anti-selection the same regex with
// invert_match. What is exact in this version:
//
//	non-resource rules   verbs (any list), nonResourceURLs, users,
//	                     serviceAccounts, userGroups
//	resource rules       apiGroups, users, serviceAccounts, userGroups, when
//	                     verbs, resources and resourceNames match all
//
// Everything else is reported and the rule left out (inexpressible). The
// reasons are real, not only unfinished work: the verb of a resource request
// depends on the method and the path together (GET of a named object is
// get, of a collection list, and POST /api/v1/watch/pods is watch), which
// one RouteMatch can only AND; list and watch differ by a query that
// Kubernetes decodes; and a list's name can come from its fieldSelector.
//
// Paths are compared as Envoy sees :path, undecoded, while Kubernetes reads
// the decoded path: a path with a percent-escape may be read differently.
// Group names containing "," cannot be told apart in the one groups header.
package xdsgen

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"

	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/internal/re2"
)

const (
	seg       = `[^/?#]*`
	tail      = `(?:[?#].*)?`
	resources = `/*(?:api/` + seg + `/[^?#]*[^/?#]|apis/` + seg + `/` + seg + `/[^?#]*[^/?#])/*`
)

// quoteAlt is an alternation of the values, quoted.
func quoteAlt(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = regexp.QuoteMeta(v)
	}
	return "(?:" + strings.Join(q, "|") + ")"
}

func regexHeader(name, re string, invert bool) *routev3.HeaderMatcher {
	return &routev3.HeaderMatcher{
		Name:                      name,
		HeaderMatchSpecifier:      &routev3.HeaderMatcher_StringMatch{StringMatch: &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: re}}}},
		InvertMatch:               invert,
		TreatMissingHeaderAsEmpty: true,
	}
}

// ruleMatch returns the RouteMatch of a compiled rule, or why it cannot be
// expressed.
func ruleMatch(r dispatch.Rule, opts UpstreamClusterOptions) (*routev3.RouteMatch, string) {
	m := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}}
	add := func(name, re string, invert bool) { m.Headers = append(m.Headers, regexHeader(name, re, invert)) }
	verbs := r.Verbs
	if verbs.None {
		return nil, "verbs is empty, so the rule matches nothing"
	}
	if urls := r.NonResourceURLs; !urls.Empty() {
		add(":path", resources+tail, true)
		if !urls.All {
			var alts []string
			for _, u := range urls.Exact {
				alts = append(alts, regexp.QuoteMeta(u))
			}
			for _, p := range urls.Prefixes {
				alts = append(alts, regexp.QuoteMeta(p)+`[^?#]*`)
			}
			add(":path", "(?:"+strings.Join(alts, "|")+")"+tail, false)
		}
		if !verbs.All {
			alts := make([]string, len(verbs.Values))
			for i, v := range verbs.Values {
				alts[i] = lowerPreimage(v)
			}
			add(":method", "(?:"+strings.Join(alts, "|")+")", verbs.Negated)
		}
	} else {
		groups, res, names := r.APIGroups, r.Resources, r.ResourceNames
		switch {
		case groups.None || res.None:
			return nil, "no apiGroups or resources and no nonResourceURLs, so the rule matches nothing"
		case !verbs.All:
			return nil, "verbs other than \"*\" on resources need the method and the path ORed together"
		case !res.All:
			return nil, "resources other than \"*\" are not expressed yet"
		case !names.All:
			return nil, "resourceNames other than \"*\" are not expressed yet (a list's name can come from its fieldSelector)"
		}
		add(":path", resources+tail, false)
		if !groups.All {
			var alts []string
			var named []string
			for _, g := range groups.Values {
				if g == "" {
					// The core group, and "/apis//<version>/..." too.
					alts = append(alts, `api/`+seg+`/[^?#]*[^/?#]`)
				}
				named = append(named, g)
			}
			if len(named) > 0 {
				alts = append(alts, `apis/`+quoteAlt(named)+`/`+seg+`/[^?#]*[^/?#]`)
			}
			add(":path", `/*(?:`+strings.Join(alts, "|")+`)/*`+tail, groups.Negated)
		}
	}
	if s := r.Subjects; s.None {
		return nil, "users and serviceAccounts match no user"
	} else if !s.All {
		add(strings.ToLower(opts.UserHeader), quoteAlt(s.Values), s.Negated)
	}
	if g := r.UserGroups; g.None {
		return nil, "userGroups match no user"
	} else if !g.All {
		for _, v := range g.Values {
			if strings.Contains(v, ",") {
				return nil, "userGroups entry " + v + " contains a comma, which the groups header cannot carry"
			}
		}
		add(strings.ToLower(opts.GroupsHeader), `(?:.*,)?`+quoteAlt(g.Values)+`(?:,.*)?`, g.Negated)
	}
	// Envoy refuses a regular expression whose RE2 program is too large,
	// and with it the whole route table; such a rule is reported instead.
	for _, h := range m.Headers {
		if re := h.GetStringMatch().GetSafeRegex().GetRegex(); re != "" {
			if n, err := re2.Size(re); err != nil || n > re2.EnvoyLimit {
				return nil, fmt.Sprintf("a generated regular expression for %s compiles to about %d RE2 instructions, more than Envoy's %d", h.GetName(), n, re2.EnvoyLimit)
			}
		}
	}
	return m, ""
}

var (
	lowerOnce sync.Once
	lowerFrom map[rune][]rune // r -> every other rune x with unicode.ToLower(x) == r
)

// lowerPreimage is an RE2 expression for the strings that strings.ToLower
// turns into v: each rune may be any rune that lower-cases to it.
func lowerPreimage(v string) string {
	lowerOnce.Do(func() {
		lowerFrom = map[rune][]rune{}
		for x := rune(0); x <= unicode.MaxRune; x++ {
			if l := unicode.ToLower(x); l != x {
				lowerFrom[l] = append(lowerFrom[l], x)
			}
		}
	})
	var b strings.Builder
	for _, r := range v {
		pre := lowerFrom[r]
		if unicode.ToLower(r) != r { // r itself lower-cases to something else
			if len(pre) == 0 {
				b.WriteString(`[^\x00-\x{10FFFF}]`) // nothing lower-cases to r
				continue
			}
		} else {
			pre = append([]rune{r}, pre...)
		}
		if len(pre) == 1 {
			b.WriteString(regexp.QuoteMeta(string(pre[0])))
			continue
		}
		b.WriteString("[")
		for _, x := range pre {
			b.WriteString(regexp.QuoteMeta(string(x)))
		}
		b.WriteString("]")
	}
	return b.String()
}
