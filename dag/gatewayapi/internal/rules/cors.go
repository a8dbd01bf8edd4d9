// The CORS filter (HTTPCORSFilter): validated and compiled into a
// graph.CORSPolicy.
//
// An allowed origin is written scheme://host[:port]. The spec assumes port 80
// for http and 443 for https when none is given, and lets the host be "*"
// (every host) or start with "*." ("a greedy match to the left, including any
// number of DNS labels"). The pattern becomes conditions on the Origin header,
// which a browser sends as the origin serialised: scheme and host in lower
// case, the port left out when it is the scheme's default. So the pattern is
// put in lower case, and one with the default port matches the origin with
// and without it:
//
//	https://www.foo.com    exact "https://www.foo.com", exact "https://www.foo.com:443"
//	http://localhost:3000  exact "http://localhost:3000"
//	https://*.bar.com      regex https://[-.0-9_a-z]+\.bar\.com(?::443)?
//	https://*:8443         regex https://(?:[-.0-9_a-z]+|\[[.0-9:a-f]+\]):8443
//	*                      regex .* (every origin)
//
// "https://*.bar.com" thus allows https://www.bar.com and https://a.b.bar.com,
// but not https://bar.com (the "*." stands for at least one label),
// http://www.bar.com (another scheme) or https://www.bar.com:8443 (another
// port). The comparison is case-sensitive: (?i) would make RE2 fold "k" and
// "s" to non-ASCII letters and grow the program past what package re2 can
// measure, and only a client that is not a browser (which CORS does not
// protect) sends an origin in upper case. A regular expression must fit
// Envoy's RE2 limit, which a wildcard origin with a very long domain does not.

package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/re2"
	"github.com/projectsesame/sesame/internal/report"
)

// defaultMaxAge is Access-Control-Max-Age when the filter sets none: "the
// gateway sets the response header "Access-Control-Max-Age: 5" by default".
const defaultMaxAge = 5

// The API's limits on the filter's lists (MaxItems) and on an origin
// (CORSOrigin's MaxLength).
const (
	maxCORSList    = 64
	maxCORSMethods = 9
	maxOriginLen   = 253
)

// corsMethods are the values allowMethods takes (HTTPMethodWithWildcard):
// method names are case-sensitive.
var corsMethods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "DELETE": true,
	"CONNECT": true, "OPTIONS": true, "TRACE": true, "PATCH": true, "*": true,
}

// cors validates a CORS filter. When problem is set, field names the field
// at fault below the filter ("cors.allowOrigins[2]"), if there is one.
func cors(f *gatewayv1.HTTPCORSFilter) (out *graph.CORSPolicy, field, problem string) {
	if f == nil {
		return nil, "", "cors is missing."
	}
	p := &graph.CORSPolicy{
		AllowCredentials: f.AllowCredentials != nil && *f.AllowCredentials,
		MaxAgeSeconds:    defaultMaxAge,
	}
	if field, problem = corsList("allowOrigins", len(f.AllowOrigins), maxCORSList, true, func(i int) string { return string(f.AllowOrigins[i]) }); problem != "" {
		return nil, field, problem
	}
	for i, o := range f.AllowOrigins {
		matches, problem := originMatches(string(o))
		if problem != "" {
			return nil, fmt.Sprintf("cors.allowOrigins[%d]", i), problem
		}
		for _, m := range matches {
			if !containsMatch(p.AllowOrigins, m) {
				p.AllowOrigins = append(p.AllowOrigins, m)
			}
		}
	}
	if field, problem = corsList("allowMethods", len(f.AllowMethods), maxCORSMethods, true, func(i int) string { return string(f.AllowMethods[i]) }); problem != "" {
		return nil, field, problem
	}
	for i, m := range f.AllowMethods {
		if !corsMethods[string(m)] {
			return nil, fmt.Sprintf("cors.allowMethods[%d]", i), fmt.Sprintf("%q is not one of GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH and \"*\" (method names are case-sensitive).", report.Value(m))
		}
		p.AllowMethods = append(p.AllowMethods, string(m))
	}
	if p.AllowHeaders, field, problem = corsHeaders("allowHeaders", f.AllowHeaders); problem != "" {
		return nil, field, problem
	}
	if p.ExposeHeaders, field, problem = corsHeaders("exposeHeaders", f.ExposeHeaders); problem != "" {
		return nil, field, problem
	}
	if i := indexOf(p.ExposeHeaders, "*"); i >= 0 && p.AllowCredentials {
		// The spec: with allowCredentials "the gateway cannot use the * in
		// the Access-Control-Expose-Headers response header"; browsers read
		// it as a header named "*" on credentialed responses, and Envoy has
		// no way to list the response's own header names instead.
		return nil, fmt.Sprintf("cors.exposeHeaders[%d]", i), "\"*\" cannot be used with allowCredentials: true (the spec forbids it, and browsers would read it as a header named \"*\"); list the header names."
	}
	switch {
	case f.MaxAge < 0:
		return nil, "cors.maxAge", fmt.Sprintf("%d is not a number of seconds of at least 1.", f.MaxAge)
	case f.MaxAge > 0:
		p.MaxAgeSeconds = uint32(f.MaxAge)
	}
	return p, "", ""
}

// corsList checks what the API checks of each of the filter's lists: at
// most limit entries, each once (a set), and, when wildcardAlone, "*" only
// alone.
func corsList(name string, n, limit int, wildcardAlone bool, at func(int) string) (field, problem string) {
	if n > limit {
		return "cors." + name, fmt.Sprintf("%d entries; the API allows at most %d.", n, limit)
	}
	seen := make(map[string]int, n)
	for i := range n {
		v := at(i)
		if j, ok := seen[v]; ok {
			return fmt.Sprintf("cors.%s[%d]", name, i), fmt.Sprintf("%q is %s[%d] already; the list is a set.", report.Value(v), name, j)
		}
		seen[v] = i
		if wildcardAlone && v == "*" && n > 1 {
			return fmt.Sprintf("cors.%s[%d]", name, i), fmt.Sprintf("\"*\" allows every value and cannot be given with others in %s.", name)
		}
	}
	return "", ""
}

// corsHeaders validates a list of header names: tokens, as HTTPHeaderName,
// each once. "*" is a token too; in allowHeaders it must come alone.
func corsHeaders(name string, names []gatewayv1.HTTPHeaderName) ([]string, string, string) {
	if field, problem := corsList(name, len(names), maxCORSList, name == "allowHeaders", func(i int) string { return string(names[i]) }); problem != "" {
		return nil, field, problem
	}
	var out []string
	for i, n := range names {
		if !check.ValidHeaderName(strings.ToLower(string(n))) {
			return nil, fmt.Sprintf("cors.%s[%d]", name, i), fmt.Sprintf("%q is not a header name (a token of at most 256 characters).", report.Value(n))
		}
		out = append(out, string(n))
	}
	return out, "", ""
}

func indexOf(list []string, v string) int {
	for i, s := range list {
		if s == v {
			return i
		}
	}
	return -1
}

func containsMatch(list []graph.StringMatch, m graph.StringMatch) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}

// originMatches compiles an allowed origin into conditions on the Origin
// header (see the top of this file).
func originMatches(origin string) ([]graph.StringMatch, string) {
	if origin == "*" {
		return []graph.StringMatch{{Name: "origin", Type: graph.MatchRegularExpression, Value: ".*"}}, ""
	}
	scheme, host, port, problem := parseOrigin(origin)
	if problem != "" {
		return nil, fmt.Sprintf("%q is not an origin: %s", report.Value(origin), problem)
	}
	defaultPort := port == schemePort(scheme)
	portText := strconv.Itoa(port)
	if host != "*" && !strings.HasPrefix(host, "*.") {
		exact := func(v string) graph.StringMatch {
			return graph.StringMatch{Name: "origin", Type: graph.MatchExact, Value: v}
		}
		withPort := exact(scheme + "://" + host + ":" + portText)
		if !defaultPort {
			return []graph.StringMatch{withPort}, ""
		}
		return []graph.StringMatch{exact(scheme + "://" + host), withPort}, ""
	}
	hostRE := `(?:[-.0-9_a-z]+|\[[.0-9:a-f]+\])` // "*": a name or an IPv6 literal
	if host != "*" {
		hostRE = `[-.0-9_a-z]+` + regexp.QuoteMeta(host[1:])
	}
	portRE := ":" + portText
	if defaultPort {
		portRE = "(?:" + portRE + ")?"
	}
	expr := scheme + "://" + hostRE + portRE
	if n, err := re2.Size(expr); err != nil || n > re2.EnvoyLimit {
		return nil, fmt.Sprintf("%q is too long for a wildcard origin: Envoy matches it with a regular expression of more than %d RE2 instructions, which it refuses; shorten the domain or list the origins.", report.Value(origin), re2.EnvoyLimit)
	}
	return []graph.StringMatch{{Name: "origin", Type: graph.MatchRegularExpression, Value: expr}}, ""
}

// parseOrigin reads scheme://host[:port] as CORSOrigin's pattern allows it:
// scheme http or https; host "*", or DNS labels of letters, digits and "-",
// the first of which may be "*"; port 1 to 65535, the scheme's default when
// none is given. The host is returned in lower case.
func parseOrigin(s string) (scheme, host string, port int, problem string) {
	if len(s) > maxOriginLen {
		return "", "", 0, fmt.Sprintf("it is %d bytes long; the API allows %d.", len(s), maxOriginLen)
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || scheme != "http" && scheme != "https" {
		return "", "", 0, "an origin is http:// or https:// followed by a host and an optional port, or \"*\"."
	}
	switch {
	case strings.ContainsAny(rest, "/?#"):
		return "", "", 0, "an origin is scheme://host[:port], without a path, query or fragment."
	case strings.Contains(rest, "@"):
		return "", "", 0, "an origin has no user information."
	}
	host, portText, hasPort := strings.Cut(rest, ":")
	port = schemePort(scheme)
	if hasPort {
		n, err := strconv.Atoi(portText)
		if err != nil || len(portText) > 5 || strings.Trim(portText, "0123456789") != "" || n < 1 || n > 65535 {
			return "", "", 0, fmt.Sprintf("the port %q is not a number from 1 to 65535.", report.Value(portText))
		}
		port = n
	}
	if host == "*" {
		return scheme, host, port, ""
	}
	labels := strings.Split(host, ".")
	for i, l := range labels {
		if l == "*" && i == 0 && len(labels) > 1 {
			continue
		}
		if l == "" || strings.Trim(strings.ToLower(l), "-0123456789abcdefghijklmnopqrstuvwxyz") != "" {
			return "", "", 0, "the host is \"*\", or DNS labels of letters, digits and \"-\" of which only the first may be \"*\"."
		}
	}
	return scheme, strings.ToLower(host), port, ""
}

func schemePort(scheme string) int {
	if scheme == "https" {
		return 443
	}
	return 80
}
