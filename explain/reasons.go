package explain

// Why a route did not match, in the words of the object that wrote it:
// an HTTPRoute's PathPrefix, an HTTPProxy's prefix condition, an Ingress
// path's pathType.

import (
	"fmt"
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"

	"github.com/projectsesame/sesame/internal/envoysim"
)

// terms are the words one kind of object uses for path matches.
type terms struct{ prefix, exact, regex string }

func termsOf(kind string) terms {
	switch kind {
	case "HTTPRoute", "GRPCRoute":
		return terms{"PathPrefix", "Exact", "RegularExpression"}
	case "HTTPProxy":
		return terms{"prefix", "exact", "regex"}
	case "Ingress":
		return terms{"Prefix", "Exact", "ImplementationSpecific"}
	}
	return terms{"prefix", "path", "regex"}
}

// missReason says why m's route did not take the request; kind is the
// route's object kind, for its terms.
func missReason(m envoysim.Miss, kind string) string {
	t := termsOf(kind)
	switch m.Criterion {
	case envoysim.MissPath:
		if kind == "GRPCRoute" {
			return fmt.Sprintf("the call %s is not %s", m.Value, grpcSpec(m.Route.GetMatch()))
		}
		return fmt.Sprintf("path %s does not match %s", m.Value, pathSpec(m.Route.GetMatch(), t))
	case envoysim.MissRuntimeFraction:
		return "its runtime fraction defaults to 0%"
	case envoysim.MissGRPC:
		if m.Value == "" {
			return "it takes gRPC requests only, and content-type is absent"
		}
		return fmt.Sprintf("it takes gRPC requests only, and content-type is %q", m.Value)
	case envoysim.MissHeader:
		return headerReason(m)
	case envoysim.MissQueryParameter:
		return presentOrValue("query parameter "+m.Name, m, queryWant(m.QueryParameter))
	case envoysim.MissCookie:
		if m.Cookie.GetInvertMatch() {
			return fmt.Sprintf("cookie %s is %q, which the route excludes (%s)", m.Name, m.Value, stringMatch(m.Cookie.GetStringMatch()))
		}
		return presentOrValue("cookie "+m.Name, m, stringMatch(m.Cookie.GetStringMatch()))
	case envoysim.MissTLSContext:
		return "it asks for a client certificate, which the explained client does not present"
	case envoysim.MissMetadata:
		return "it matches on dynamic metadata or filter state, which the model does not have"
	case envoysim.MissAction:
		return "it has no action Envoy runs for a request"
	}
	return "it does not match"
}

// grpcSpec is a GRPCRoute's method match, which Sesame writes as a path:
// "/pkg.Service/Method" exactly, "/pkg.Service/" as a prefix, "/" for any
// call, or a regular expression.
func grpcSpec(m *routev3.RouteMatch) string {
	switch p := m.GetPathSpecifier().(type) {
	case *routev3.RouteMatch_Path:
		return "method " + strings.TrimPrefix(p.Path, "/")
	case *routev3.RouteMatch_Prefix:
		if p.Prefix == "/" {
			return "any method"
		}
		return "a method of service " + strings.Trim(p.Prefix, "/")
	case *routev3.RouteMatch_SafeRegex:
		return "a method matching RegularExpression " + p.SafeRegex.GetRegex()
	}
	return pathSpec(m, termsOf("GRPCRoute"))
}

// pathSpec is a route's path specifier in t's words.
func pathSpec(m *routev3.RouteMatch, t terms) string {
	s := ""
	switch p := m.GetPathSpecifier().(type) {
	case *routev3.RouteMatch_Prefix:
		s = t.prefix + " " + p.Prefix
	case *routev3.RouteMatch_PathSeparatedPrefix:
		s = t.prefix + " " + p.PathSeparatedPrefix
	case *routev3.RouteMatch_Path:
		s = t.exact + " " + p.Path
	case *routev3.RouteMatch_SafeRegex:
		s = t.regex + " " + p.SafeRegex.GetRegex()
	case *routev3.RouteMatch_ConnectMatcher_:
		return "CONNECT requests"
	default:
		return "any path the model can run"
	}
	if cs := m.GetCaseSensitive(); cs != nil && !cs.GetValue() {
		s += " (any case)"
	}
	return s
}

// matchSummary is what a route matches: its path, then its other
// criteria, "PathPrefix /api, header x-canary Exact \"true\"".
func matchSummary(m *routev3.RouteMatch, kind string) string {
	parts := []string{pathSpec(m, termsOf(kind))}
	if kind == "GRPCRoute" {
		parts[0] = grpcSpec(m)
	}
	if m.GetGrpc() != nil {
		parts = append(parts, "gRPC")
	}
	for _, h := range m.GetHeaders() {
		switch {
		case h.GetName() == ":method":
			parts = append(parts, "method "+strings.TrimPrefix(headerSpec(h), "Exact "))
		case h.GetInvertMatch():
			parts = append(parts, "header "+h.GetName()+" not "+headerSpec(h))
		default:
			parts = append(parts, "header "+h.GetName()+" "+headerSpec(h))
		}
	}
	for _, q := range m.GetQueryParameters() {
		parts = append(parts, "query parameter "+q.GetName()+" "+queryWant(q))
	}
	for _, c := range m.GetCookies() {
		parts = append(parts, "cookie "+c.GetName()+" "+stringMatch(c.GetStringMatch()))
	}
	return strings.Join(parts, ", ")
}

// headerReason says why a header matcher failed; ":method" is the method.
func headerReason(m envoysim.Miss) string {
	h := m.Header
	subject := "header " + m.Name
	if m.Name == ":method" {
		subject = "method"
	}
	switch {
	case isPresenceTest(h) && !m.Present:
		return subject + " is absent"
	case isPresenceTest(h):
		return fmt.Sprintf("%s is present (%q), and the route wants it absent", subject, m.Value)
	case h.GetInvertMatch() && m.Present:
		return fmt.Sprintf("%s is %q, which the route excludes (%s)", subject, m.Value, headerSpec(h))
	case !m.Present:
		return fmt.Sprintf("%s is absent (the route wants %s)", subject, headerSpec(h))
	}
	return fmt.Sprintf("%s %q does not match %s", subject, m.Value, headerSpec(h))
}

// isPresenceTest says whether h tests only whether the header is there.
func isPresenceTest(h *routev3.HeaderMatcher) bool {
	switch h.GetHeaderMatchSpecifier().(type) {
	case nil, *routev3.HeaderMatcher_PresentMatch:
		return true
	}
	return false
}

// headerSpec is a header matcher's value test.
func headerSpec(h *routev3.HeaderMatcher) string {
	switch s := h.GetHeaderMatchSpecifier().(type) {
	case *routev3.HeaderMatcher_ExactMatch:
		return "Exact " + strconv.Quote(s.ExactMatch)
	case *routev3.HeaderMatcher_SafeRegexMatch:
		return "RegularExpression " + strconv.Quote(s.SafeRegexMatch.GetRegex())
	case *routev3.HeaderMatcher_PrefixMatch:
		return "prefix " + strconv.Quote(s.PrefixMatch)
	case *routev3.HeaderMatcher_SuffixMatch:
		return "suffix " + strconv.Quote(s.SuffixMatch)
	case *routev3.HeaderMatcher_ContainsMatch:
		return "contains " + strconv.Quote(s.ContainsMatch)
	case *routev3.HeaderMatcher_RangeMatch:
		return fmt.Sprintf("range [%d, %d)", s.RangeMatch.GetStart(), s.RangeMatch.GetEnd())
	case *routev3.HeaderMatcher_StringMatch:
		return stringMatch(s.StringMatch)
	}
	return "presence"
}

// stringMatch is a StringMatcher's test.
func stringMatch(m *matcherv3.StringMatcher) string {
	s := ""
	switch p := m.GetMatchPattern().(type) {
	case *matcherv3.StringMatcher_Exact:
		s = "Exact " + strconv.Quote(p.Exact)
	case *matcherv3.StringMatcher_Prefix:
		s = "prefix " + strconv.Quote(p.Prefix)
	case *matcherv3.StringMatcher_Suffix:
		s = "suffix " + strconv.Quote(p.Suffix)
	case *matcherv3.StringMatcher_Contains:
		s = "contains " + strconv.Quote(p.Contains)
	case *matcherv3.StringMatcher_SafeRegex:
		s = "RegularExpression " + strconv.Quote(p.SafeRegex.GetRegex())
	default:
		return "a test the model does not know"
	}
	if m.GetIgnoreCase() {
		s += " (any case)"
	}
	return s
}

// queryWant is a query parameter matcher's test.
func queryWant(q *routev3.QueryParameterMatcher) string {
	if sm := q.GetStringMatch(); sm != nil {
		return stringMatch(sm)
	}
	if pm, ok := q.GetQueryParameterMatchSpecifier().(*routev3.QueryParameterMatcher_PresentMatch); ok && !pm.PresentMatch {
		return "absence"
	}
	return "presence"
}

// presentOrValue says a value test failed: absent, or the wrong value.
func presentOrValue(subject string, m envoysim.Miss, want string) string {
	switch {
	case want == "absence":
		return fmt.Sprintf("%s is present (%q), and the route wants it absent", subject, m.Value)
	case !m.Present:
		return fmt.Sprintf("%s is absent (the route wants %s)", subject, want)
	case want == "presence":
		return subject + " does not match"
	}
	return fmt.Sprintf("%s %q does not match %s", subject, m.Value, want)
}

// domainsOf lists a virtual host's domains for a reason.
func domainsOf(d []string) string {
	const most = 5
	if len(d) > most {
		return strings.Join(d[:most], ", ") + fmt.Sprintf(" and %d more", len(d)-most)
	}
	return strings.Join(d, ", ")
}
