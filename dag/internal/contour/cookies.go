package contour

import (
	"fmt"
	"strings"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// Cookie rewriting, as Contour documents it, on routes and services:
//
//	cookieRewritePolicies:
//	- name: X-Session
//	  pathRewrite: {value: /admin}
//	  domainRewrite: {value: example.com}
//	  secure: true
//	  sameSite: Lax
//
// rewrites the Path, Domain, Secure and SameSite attributes of each
// Set-Cookie header for the cookie X-Session in the responses: a
// service's in the responses it sends, a route's in all of the route's.

// CookieRewrites reads cookie rewrite policies at field.
func CookieRewrites(list []contourv1.CookieRewritePolicy, field string) ([]graph.CookieRewrite, string) {
	var out []graph.CookieRewrite
	seen := map[string]bool{}
	for i, p := range list {
		at := fmt.Sprintf("%s[%d]", field, i)
		c := graph.CookieRewrite{Name: p.Name, Secure: p.Secure}
		switch {
		case !validCookieName(p.Name):
			return nil, fmt.Sprintf("%s.name %q is not a cookie name (a token of at most 4096 characters).", at, report.Value(p.Name))
		case seen[p.Name]:
			return nil, fmt.Sprintf("%s.name %q is rewritten twice; give one policy per cookie.", at, report.Value(p.Name))
		case p.PathRewrite == nil && p.DomainRewrite == nil && p.Secure == nil && p.SameSite == nil:
			return nil, fmt.Sprintf("%s rewrites nothing; set pathRewrite, domainRewrite, secure or sameSite.", at)
		}
		seen[p.Name] = true
		if r := p.PathRewrite; r != nil {
			if r.Value == "" || strings.Contains(r.Value, ";") || check.HeaderValue(r.Value) != "" || len(r.Value) > 4096 {
				return nil, fmt.Sprintf("%s.pathRewrite.value %q is not a cookie path (no \";\" or control characters).", at, report.Value(r.Value))
			}
			c.Path = r.Value
		}
		if r := p.DomainRewrite; r != nil {
			if hostmatch.Validate(strings.ToLower(r.Value)) != nil || hostmatch.IsWildcard(r.Value) {
				return nil, fmt.Sprintf("%s.domainRewrite.value %q is not a domain.", at, report.Value(r.Value))
			}
			c.Domain = r.Value
		}
		if s := p.SameSite; s != nil {
			if *s != "Strict" && *s != "Lax" && *s != "None" {
				return nil, fmt.Sprintf("%s.sameSite %q is not Strict, Lax or None.", at, report.Value(*s))
			}
			c.SameSite = *s
		}
		out = append(out, c)
	}
	return out, ""
}

// validCookieName reports whether name is an RFC 6265 cookie name: a
// token.
func validCookieName(name string) bool {
	return name != "" && len(name) <= 4096 && check.ValidHeaderName(strings.ToLower(name))
}
