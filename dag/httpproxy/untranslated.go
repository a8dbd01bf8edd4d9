// HTTPProxy fields Sesame decodes but does not translate.
//
// The rule: a field that protects traffic (authorization, JWT verification,
// IP allow and deny lists, rate limits, client certificate
// validation, upstream certificate validation) is never ignored, because
// ignoring it would serve traffic without the protection its author asked
// for. On a route it makes the route answer 503 at its match (rather than
// drop it, which would let its requests fall through to another route,
// probably without the protection); on a virtual host it makes the root
// invalid, and its hostname is refused whole (roots.go). Every other
// untranslated field (load balancing, health checks, cookie rewrites,
// slow start, ...) is ignored with a warning that names it.

package httpproxy

import (
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
)

// untranslatedField is one field of an HTTPProxy that Sesame does not
// translate.
type untranslatedField struct {
	name string // the field's name under its parent, e.g. "ipAllowPolicy"
	set  bool
	// refuse is the sub-condition type of the error when the field must not
	// be ignored; "" for a field that is ignored with a warning.
	refuse string
}


func routeUntranslated(r *contourv1.Route) []untranslatedField {
	return []untranslatedField{
		{"cookieRewritePolicies", r.CookieRewritePolicies.Set(), ""},
	}
}

func serviceUntranslated(s *contourv1.Service) []untranslatedField {
	return []untranslatedField{
		{"cookieRewritePolicies", s.CookieRewritePolicies.Set(), ""},
	}
}

// reportUntranslated records the set fields of fields, found under field
// path at: an error for each field that must not be ignored, whose
// consequence is written by consequence ("the route answers 503 ..."), and
// a warning for each other. It reports whether any error was recorded.
func reportUntranslated(st *proxyStatus, at string, fields []untranslatedField, consequence string) bool {
	refused := false
	for _, f := range fields {
		switch {
		case !f.set:
		case f.refuse != "":
			refused = true
			st.addError(f.refuse, "NotTranslated", "%s.%s is not translated by this version of Sesame; %s", at, f.name, consequence)
		default:
			st.addWarning(contourv1.ConditionTypeSpecError, "IgnoredField", "%s.%s is not translated by this version of Sesame and is ignored.", at, f.name)
		}
	}
	return refused
}
