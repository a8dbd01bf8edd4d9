// An HTTPProxy root's spec.virtualhost.corsPolicy, as Contour documents it:
// it applies to every route of the virtual host, the included proxies'
// too. allowOrigin entries are "*", an exact origin (scheme://host[:port],
// compared as written, as Contour does) or, when not of that form, a
// regular expression over the whole Origin header. allowMethods is
// required; "*" in allowMethods or allowHeaders answers what a preflight
// asks for. maxAge is a Go duration, "0s" asking browsers not to cache.
// A policy that cannot be used refuses the virtual host (CORSError), as an
// untranslated one did: the routes are never served without it.

package contour

import (
	"fmt"
	"math"
	"regexp"
	"time"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// exactOrigin is an origin Contour compares exactly.
var exactOrigin = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://([a-zA-Z0-9.-]+|\[[0-9a-fA-F:.]+\])(:[0-9]+)?$`)

// CORS reads a corsPolicy, or says what is wrong with it.
func CORS(p *contourv1.CORSPolicy, field string) (*graph.CORSPolicy, string) {
	if p == nil {
		return nil, ""
	}
	out := &graph.CORSPolicy{AllowCredentials: p.AllowCredentials, AllowPrivateNetwork: p.AllowPrivateNetwork}
	if len(p.AllowOrigin) == 0 {
		return nil, field + ".allowOrigin is required: list the origins allowed, or \"*\"."
	}
	for i, o := range p.AllowOrigin {
		switch {
		case o == "*":
			out.AllowOrigins = append(out.AllowOrigins, graph.StringMatch{Name: "origin", Type: graph.MatchRegularExpression, Value: ".*"})
		case exactOrigin.MatchString(o):
			out.AllowOrigins = append(out.AllowOrigins, graph.StringMatch{Name: "origin", Type: graph.MatchExact, Value: o})
		default:
			if problem := check.Regex(o); problem != "" {
				return nil, fmt.Sprintf("%s.allowOrigin[%d] %q is neither \"*\", an origin nor a valid regular expression: %s", field, i, report.Value(o), problem)
			}
			out.AllowOrigins = append(out.AllowOrigins, graph.StringMatch{Name: "origin", Type: graph.MatchRegularExpression, Value: o})
		}
	}
	if len(p.AllowMethods) == 0 {
		return nil, field + ".allowMethods is required."
	}
	var problem string
	if out.AllowMethods, problem = corsNames(p.AllowMethods, field+".allowMethods"); problem != "" {
		return nil, problem
	}
	if out.AllowHeaders, problem = corsNames(p.AllowHeaders, field+".allowHeaders"); problem != "" {
		return nil, problem
	}
	if out.ExposeHeaders, problem = corsNames(p.ExposeHeaders, field+".exposeHeaders"); problem != "" {
		return nil, problem
	}
	if p.MaxAge != "" {
		d, err := time.ParseDuration(p.MaxAge)
		switch {
		case err != nil:
			return nil, fmt.Sprintf("%s.maxAge %q is not a duration (Go's form, \"10m\"): %v.", field, report.Value(p.MaxAge), err)
		case d < 0:
			return nil, fmt.Sprintf("%s.maxAge %q is negative.", field, report.Value(p.MaxAge))
		case d.Seconds() > math.MaxUint32:
			return nil, fmt.Sprintf("%s.maxAge %q is too long.", field, report.Value(p.MaxAge))
		}
		out.MaxAgeSeconds, out.MaxAgeSet = uint32(d/time.Second), true
	}
	return out, ""
}

// corsNames checks method or header names: tokens, or "*".
func corsNames(values []contourv1.CORSHeaderValue, field string) ([]string, string) {
	var out []string
	for i, v := range values {
		s := string(v)
		if s != "*" && !check.ValidHeaderName(s) {
			return nil, fmt.Sprintf("%s[%d] %q is not a method or header name (an HTTP token).", field, i, report.Value(s))
		}
		out = append(out, s)
	}
	return out, ""
}
