package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// compiledFilters are the filters of one HTTPRoute rule, before they meet the
// Rule's matches (a prefix rewrite needs the matched prefix).
type compiledFilters struct {
	graph.Filters
	// unresolved is true when an ExtensionRef names a filter Sesame does not
	// know: the spec says such a filter "MUST NOT be skipped" and the
	// requests it would process "MUST receive a HTTP error response".
	unresolved bool
}

// compileFilters validates the filters of a rule. problem names the first
// filter the rule cannot be served with; then the rule is dropped. Filters
// whose only fault is an unresolvable reference (a mirror's Service) are
// left out and reported through c instead, as the spec keeps the rule.
func (b *Compiler) compileFilters(from backendOrigin, filters []gatewayv1.HTTPRouteFilter, field string, c *Compiled) (compiledFilters, string) {
	var out compiledFilters
	seen := map[gatewayv1.HTTPRouteFilterType]bool{}
	for i := range filters {
		f := &filters[i]
		at := fmt.Sprintf("%s.filters[%d]", field, i)
		repeatable := f.Type == gatewayv1.HTTPRouteFilterRequestMirror || f.Type == gatewayv1.HTTPRouteFilterExtensionRef
		if seen[f.Type] && !repeatable {
			return out, fmt.Sprintf("%s: filter %s appears twice; it may appear once.", at, f.Type)
		}
		seen[f.Type] = true
		var problem string
		switch f.Type {
		case gatewayv1.HTTPRouteFilterRequestHeaderModifier:
			out.RequestHeaders, problem = headerModifier(f.RequestHeaderModifier, false)
		case gatewayv1.HTTPRouteFilterResponseHeaderModifier:
			out.ResponseHeaders, problem = headerModifier(f.ResponseHeaderModifier, true)
		case gatewayv1.HTTPRouteFilterRequestRedirect:
			out.Redirect, problem = redirect(f.RequestRedirect)
		case gatewayv1.HTTPRouteFilterURLRewrite:
			out.Rewrite, problem = rewrite(f.URLRewrite)
		case gatewayv1.HTTPRouteFilterRequestMirror:
			var m *graph.Mirror
			if m, problem = b.mirror(from, f.RequestMirror, at, c); m != nil {
				out.Mirrors = append(out.Mirrors, *m)
			}
		case gatewayv1.HTTPRouteFilterExtensionRef:
			c.refProblem(string(gatewayv1.RouteReasonInvalidKind), fmt.Sprintf("%s: extensionRef %s is not a filter Sesame knows; requests this rule matches are answered %d.", at, extensionRefName(f.ExtensionRef), ErrorStatus(from.kind)))
			out.unresolved = true
		case gatewayv1.HTTPRouteFilterCORS:
			var field string
			if out.CORS, field, problem = cors(f.CORS); field != "" {
				at += "." + field
			}
		case gatewayv1.HTTPRouteFilterExternalAuth:
			problem = fmt.Sprintf("filter %s is not supported by this version of Sesame.", f.Type)
			c.protective = true // the rule fails closed
		default:
			problem = fmt.Sprintf("filter type %q is not one of the Gateway API's.", report.Value(f.Type))
		}
		if problem != "" {
			return out, at + ": " + problem
		}
	}
	if out.Redirect != nil && out.Rewrite != nil {
		return out, field + ".filters: RequestRedirect and URLRewrite cannot be used together (IncompatibleFilters)."
	}
	if problem := hostHeader(&out.Filters); problem != "" {
		return out, field + ".filters: " + problem
	}
	return out, ""
}

// extensionRefName names the filter an ExtensionRef refers to, for status.
func extensionRefName(ref *gatewayv1.LocalObjectReference) string {
	if ref == nil {
		return "(none)"
	}
	return fmt.Sprintf("%s %q", refs.GroupKind(string(ref.Group), string(ref.Kind)), ref.Name)
}

// hostHeader moves a RequestHeaderModifier that sets Host into a host
// rewrite: Envoy refuses configuration that changes Host (or a
// pseudo-header) through request_headers_to_add, but rewrites it on
// forwarding, which is what setting it means. Adding to or removing Host
// has no such equivalent and is refused.
func hostHeader(f *graph.Filters) string {
	m := &f.RequestHeaders
	if slices.Contains(m.Remove, "host") || slices.ContainsFunc(m.Add, func(h graph.Header) bool { return h.Name == "host" }) {
		return "requestHeaderModifier cannot add to or remove the Host header; set it (or use URLRewrite hostname)."
	}
	i := slices.IndexFunc(m.Set, func(h graph.Header) bool { return h.Name == "host" })
	if i < 0 {
		return ""
	}
	host := m.Set[i].Value
	m.Set = slices.Delete(slices.Clone(m.Set), i, i+1)
	switch {
	case f.Redirect != nil:
		return "" // nothing is forwarded; the Host a redirect keeps is the request's
	case f.Rewrite != nil && f.Rewrite.Hostname != "":
		return "requestHeaderModifier sets Host and URLRewrite sets the hostname; give one."
	case f.Rewrite != nil:
		rw := *f.Rewrite
		rw.Hostname = host
		f.Rewrite = &rw
	default:
		f.Rewrite = &graph.Rewrite{Hostname: host}
	}
	return ""
}

// forMatch completes the filters for one match: a ReplacePrefixMatch
// replaces that match's prefix, and needs one.
func (f compiledFilters) forMatch(m graph.RouteMatch) (graph.Filters, string) {
	out := f.Filters
	if out.Redirect != nil && prefixPending(out.Redirect.Path) {
		copied := *out.Redirect
		out.Redirect = &copied
		if !withMatchedPrefix(&copied.Path, m) {
			return graph.Filters{}, needsPrefix(m)
		}
	}
	if out.Rewrite != nil && prefixPending(out.Rewrite.Path) {
		copied := *out.Rewrite
		out.Rewrite = &copied
		if !withMatchedPrefix(&copied.Path, m) {
			return graph.Filters{}, needsPrefix(m)
		}
	}
	return out, ""
}

func prefixPending(p *graph.PathRewrite) bool { return p != nil && p.ReplacePrefix }

// withMatchedPrefix replaces *p with a copy that knows m's prefix; the
// compiled filters are shared by the rule's matches and stay unchanged.
func withMatchedPrefix(p **graph.PathRewrite, m graph.RouteMatch) bool {
	if m.Path.Type != graph.PathPrefix {
		return false
	}
	copied := **p
	copied.MatchedPrefix = m.Path.Value
	*p = &copied
	return true
}

func needsPrefix(m graph.RouteMatch) string {
	return "ReplacePrefixMatch needs a PathPrefix match; this match is " + string(m.Path.Type) + "."
}

// headerModifier validates a header filter: names are header tokens, each
// named once across set, add and remove ("Only one action for a given
// header name is permitted"; the HTTPHeaderFilter's rule, which Sesame reads
// as overriding HTTPHeader's "subsequent entries ... MUST be ignored", since
// either reading of a repeated name changes what is sent), values are
// header values Envoy takes, and names are lower-cased, as header names are
// case-insensitive. A response filter may not touch Server, nor remove
// Date: Envoy's connection manager writes them after every filter, so the
// filter could not be applied as written.
func headerModifier(f *gatewayv1.HTTPHeaderFilter, response bool) (graph.HeaderModifier, string) {
	field := "requestHeaderModifier"
	if response {
		field = "responseHeaderModifier"
	}
	if f == nil {
		return graph.HeaderModifier{}, field + " is missing."
	}
	var out graph.HeaderModifier
	seen := map[string]string{} // lower-cased name: the list that names it
	// check validates the i-th entry of list and returns its lower-cased name.
	check := func(list string, i int, raw, value string) (string, string) {
		at := fmt.Sprintf("%s.%s[%d]: ", field, list, i)
		n := strings.ToLower(raw)
		switch {
		case !check.ValidHeaderName(n):
			return "", at + fmt.Sprintf("%q is not a header name (a token of at most 256 characters).", report.Value(raw))
		case seen[n] != "":
			return "", at + fmt.Sprintf("header %q is named in %s already; a filter may act on a header once.", report.Value(raw), seen[n])
		case response && n == "server":
			return "", at + "Envoy writes the Server header of every response after the route's filters, so a filter cannot change it."
		case response && n == "date" && list == "remove":
			return "", at + "Envoy adds a Date header to every response that has none, so a filter cannot remove it."
		}
		seen[n] = list
		if problem := check.HeaderValue(value); problem != "" {
			return "", at + problem
		}
		return n, ""
	}
	headers := func(in []gatewayv1.HTTPHeader, list string) ([]graph.Header, string) {
		var hs []graph.Header
		for i, h := range in {
			n, problem := check(list, i, string(h.Name), h.Value)
			if problem != "" {
				return nil, problem
			}
			hs = append(hs, graph.Header{Name: n, Value: h.Value})
		}
		return hs, ""
	}
	var problem string
	if out.Set, problem = headers(f.Set, "set"); problem != "" {
		return graph.HeaderModifier{}, problem
	}
	if out.Add, problem = headers(f.Add, "add"); problem != "" {
		return graph.HeaderModifier{}, problem
	}
	for i, raw := range f.Remove {
		n, problem := check("remove", i, raw, "")
		if problem != "" {
			return graph.HeaderModifier{}, problem
		}
		out.Remove = append(out.Remove, n)
	}
	return out, ""
}

// redirect validates a RequestRedirect filter. The status defaults to 302,
// as the API does.
func redirect(f *gatewayv1.HTTPRequestRedirectFilter) (*graph.Redirect, string) {
	if f == nil {
		return nil, "requestRedirect is missing."
	}
	out := &graph.Redirect{StatusCode: 302}
	if f.Scheme != nil {
		out.Scheme = *f.Scheme
		if out.Scheme != "http" && out.Scheme != "https" {
			return nil, fmt.Sprintf("requestRedirect.scheme %q is not http or https.", report.Value(out.Scheme))
		}
	}
	if f.Hostname != nil {
		out.Hostname = string(*f.Hostname)
		if err := hostmatch.ValidatePrecise(out.Hostname); err != nil {
			return nil, fmt.Sprintf("requestRedirect.hostname: %v.", err)
		}
	}
	if f.Port != nil {
		out.Port = int32(*f.Port)
		if out.Port < 1 || out.Port > 65535 {
			return nil, fmt.Sprintf("requestRedirect.port %d is not in 1-65535.", out.Port)
		}
	}
	if f.StatusCode != nil {
		out.StatusCode = *f.StatusCode
		switch out.StatusCode {
		case 301, 302, 303, 307, 308:
		default:
			return nil, fmt.Sprintf("requestRedirect.statusCode %d is not one of 301, 302, 303, 307, 308.", out.StatusCode)
		}
	}
	var problem string
	out.Path, problem = pathModifier(f.Path, "requestRedirect.path")
	return out, problem
}

// rewrite validates a URLRewrite filter.
func rewrite(f *gatewayv1.HTTPURLRewriteFilter) (*graph.Rewrite, string) {
	if f == nil {
		return nil, "urlRewrite is missing."
	}
	out := &graph.Rewrite{}
	if f.Hostname != nil {
		out.Hostname = string(*f.Hostname)
		if err := hostmatch.ValidatePrecise(out.Hostname); err != nil {
			return nil, fmt.Sprintf("urlRewrite.hostname: %v.", err)
		}
	}
	var problem string
	out.Path, problem = pathModifier(f.Path, "urlRewrite.path")
	return out, problem
}

func pathModifier(p *gatewayv1.HTTPPathModifier, field string) (*graph.PathRewrite, string) {
	if p == nil {
		return nil, ""
	}
	switch p.Type {
	case gatewayv1.FullPathHTTPPathModifier:
		if p.ReplaceFullPath == nil || !strings.HasPrefix(*p.ReplaceFullPath, "/") {
			return nil, field + ".replaceFullPath must be a path starting with \"/\"."
		}
		if problem := check.HeaderValue(*p.ReplaceFullPath); problem != "" {
			return nil, field + ".replaceFullPath: " + problem
		}
		return &graph.PathRewrite{Full: *p.ReplaceFullPath}, ""
	case gatewayv1.PrefixMatchHTTPPathModifier:
		prefix := "/"
		if p.ReplacePrefixMatch != nil && *p.ReplacePrefixMatch != "" {
			prefix = *p.ReplacePrefixMatch
		}
		if !strings.HasPrefix(prefix, "/") {
			return nil, field + ".replacePrefixMatch must start with \"/\"."
		}
		if problem := check.HeaderValue(prefix); problem != "" {
			return nil, field + ".replacePrefixMatch: " + problem
		}
		return &graph.PathRewrite{Prefix: prefix, ReplacePrefix: true}, ""
	default:
		return nil, fmt.Sprintf("%s.type %q is not ReplaceFullPath or ReplacePrefixMatch.", field, report.Value(p.Type))
	}
}

// mirror resolves a RequestMirror filter. An unusable backend is reported in
// ResolvedRefs and the mirror left out; the rule still serves.
func (b *Compiler) mirror(from backendOrigin, f *gatewayv1.HTTPRequestMirrorFilter, at string, c *Compiled) (*graph.Mirror, string) {
	if f == nil {
		return nil, "requestMirror is missing."
	}
	num, den := uint32(100), uint32(100)
	switch {
	case f.Percent != nil && f.Fraction != nil:
		return nil, "requestMirror has both percent and fraction; give one."
	case f.Percent != nil:
		if *f.Percent < 0 || *f.Percent > 100 {
			return nil, fmt.Sprintf("requestMirror.percent %d is not in 0-100.", *f.Percent)
		}
		num = uint32(*f.Percent)
	case f.Fraction != nil:
		d := int32(100)
		if f.Fraction.Denominator != nil {
			d = *f.Fraction.Denominator
		}
		if d < 1 || f.Fraction.Numerator < 0 || f.Fraction.Numerator > d {
			return nil, fmt.Sprintf("requestMirror.fraction %d/%d is not a fraction between 0 and 1.", f.Fraction.Numerator, d)
		}
		num, den = uint32(f.Fraction.Numerator), uint32(d)
	}
	ref := gatewayv1.BackendRef{BackendObjectReference: f.BackendRef}
	cluster, reason, problem := b.resolveServiceRef(from, &ref, c)
	if reason != "" {
		c.refProblem(reason, fmt.Sprintf("%s.requestMirror.backendRef: %s The mirror is left out.", at, problem))
		return nil, ""
	}
	if cluster == nil { // its BackendTLSPolicy is not accepted
		c.TLSProblems = append(c.TLSProblems, fmt.Sprintf("%s.requestMirror.backendRef: %s; the mirror is left out.", at, problem))
		return nil, ""
	}
	return &graph.Mirror{Cluster: cluster, Numerator: num, Denominator: den}, ""
}

// timeouts validates a rule's timeouts (GEP-2257 durations). The backend
// timeout may not exceed the request timeout, which encompasses it.
func timeouts(t *gatewayv1.HTTPRouteTimeouts, field string) (request, backend *time.Duration, problem string) {
	if t == nil {
		return nil, nil, ""
	}
	parse := func(d *gatewayv1.Duration, name string) (*time.Duration, string) {
		return durationField(d, field+".timeouts."+name)
	}
	if request, problem = parse(t.Request, "request"); problem != "" {
		return nil, nil, problem
	}
	if backend, problem = parse(t.BackendRequest, "backendRequest"); problem != "" {
		return nil, nil, problem
	}
	// Zero disables a timeout; only two set timeouts can be compared.
	if request != nil && backend != nil && *request != 0 && *backend != 0 && *backend > *request {
		return nil, nil, fmt.Sprintf("%s.timeouts: backendRequest %s exceeds request %s, which includes it.", field, *t.BackendRequest, *t.Request)
	}
	return request, backend, ""
}

// durationField reads the optional GEP-2257 duration at field: nil when it
// is not given, or a problem naming the field.
func durationField(d *gatewayv1.Duration, field string) (*time.Duration, string) {
	if d == nil {
		return nil, ""
	}
	v, ok := parseDuration(string(*d))
	if !ok {
		return nil, fmt.Sprintf("%s: %q is not a duration such as 10s, 1m30s or 500ms (GEP-2257: up to four groups of up to five digits and a unit, h, m, s or ms).", field, report.Value(*d))
	}
	return &v, ""
}

// parseDuration reads a GEP-2257 duration, the API's pattern
// ^([0-9]{1,5}(h|m|s|ms)){1,4}$: "1h30m", "500ms", "0s". It is a strict
// subset of what time.ParseDuration reads, which also takes "1.5s",
// "100us" and a bare "0", values the API refuses.
func parseDuration(s string) (time.Duration, bool) {
	var total time.Duration
	for groups := 0; s != "" || groups == 0; groups++ {
		digits := 0
		for digits < len(s) && '0' <= s[digits] && s[digits] <= '9' {
			digits++
		}
		if groups == 4 || digits == 0 || digits > 5 {
			return 0, false
		}
		n, _ := strconv.Atoi(s[:digits]) // at most five digits: no error
		s = s[digits:]
		var unit time.Duration
		switch {
		case strings.HasPrefix(s, "ms"):
			unit, s = time.Millisecond, s[2:]
		case strings.HasPrefix(s, "h"):
			unit, s = time.Hour, s[1:]
		case strings.HasPrefix(s, "m"):
			unit, s = time.Minute, s[1:]
		case strings.HasPrefix(s, "s"):
			unit, s = time.Second, s[1:]
		default:
			return 0, false
		}
		total += time.Duration(n) * unit
	}
	return total, true
}
