// HTTPProxy roots: which proxies claim which hostnames, and which can serve
// them.
//
// A proxy with spec.virtualhost is a root. Checks, in the order a person
// debugging would make them:
//
//  1. fqdn is set and a valid hostname (a "*." wildcard matches exactly
//     one label, hostmatch.SingleLabel);
//  2. the proxy's namespace may hold roots (Options.RootNamespaces; seed
//     003, "Root HTTPProxies");
//  3. no other root claims the same fqdn, compared case-insensitively:
//     otherwise all of them are invalid (Contour);
//  4. the spec defines something (routes, includes or a TCP proxy), asks
//     for no virtual host protection Sesame does not translate, and its TLS
//     and TCP proxy can be served.
//
// A root that fails 1 or 2 claims nothing: its fqdn is left to others,
// and a root outside RootNamespaces is not counted for 3 either, so that
// creating a proxy in a namespace without the right to roots cannot take
// a hostname away from its owner (Contour counts it; that lets any
// namespace make another team's root invalid). A root that fails 3 or 4
// Claims its fqdn but cannot serve it: the fqdn is refused (HTTP requests
// answered 503, TLS connections closed), so that its requests are not
// Served by another root, such as a wildcard, with another owner's
// configuration.
//
// TLS: tls.secretName names a kubernetes.io/tls Secret in the root's own
// namespace ("name" or "<namespace>/name" with the same namespace).
// Contour's TLSCertificateDelegation, which lets a root use a Secret of
// another namespace, is not read by this version, and such a reference is
// an error. tls.passthrough forwards connections without terminating them
// and needs spec.tcpproxy.

package httpproxy

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// roots checks every root among names (sorted) and returns the hosts they
// claim, sorted by root name.
func (pb *Result) roots(names []types.NamespacedName) []*proxyHost {
	var candidates []*proxyHost
	claims := map[string][]types.NamespacedName{}
	for _, name := range names {
		p := pb.proxies[name]
		vh := p.Spec.VirtualHost
		if vh == nil {
			continue
		}
		st := pb.statuses[name]
		fqdn := strings.ToLower(vh.Fqdn)
		switch {
		case strings.TrimSpace(vh.Fqdn) == "":
			st.addError(contourv1.ConditionTypeVirtualHostError, "FQDNNotSpecified", "spec.virtualhost.fqdn must be specified.")
			continue
		case hostmatch.Validate(fqdn) != nil:
			st.addError(contourv1.ConditionTypeVirtualHostError, "FQDNNotValid", "spec.virtualhost.fqdn %q: %v.", report.Value(vh.Fqdn), hostmatch.Validate(fqdn))
			continue
		case !pb.opts.rootAllowed(name.Namespace):
			st.addError(contourv1.ConditionTypeRootNamespaceError, "RootProxyNotAllowedInNamespace",
				"root HTTPProxy cannot be defined in namespace %q: roots (HTTPProxies with spec.virtualhost) are allowed only in %s. Move it there, or remove spec.virtualhost and have a root include it.",
				name.Namespace, quoteAll(pb.opts.RootNamespaces))
			continue
		}
		claims[fqdn] = append(claims[fqdn], name)
		candidates = append(candidates, &proxyHost{root: name, fqdn: fqdn, secure: vh.TLS != nil})
	}
	var hosts []*proxyHost
	for _, h := range candidates {
		st := pb.statuses[h.root]
		st.reached = true
		if owners := claims[h.fqdn]; len(owners) > 1 {
			st.addError(contourv1.ConditionTypeVirtualHostError, "DuplicateVhost",
				"fqdn %q is used in multiple HTTPProxies: %s; none of them is served, and the hostname answers 503. Keep one root for the hostname and have it include the others.",
				h.fqdn, joinNames(owners))
			if owners[0] != h.root {
				continue // the first owner's host stands for them all
			}
			h.refused = true
			h.secure = slices.ContainsFunc(owners, func(n types.NamespacedName) bool { return pb.proxies[n].Spec.VirtualHost.TLS != nil })
		} else {
			h.refused = !pb.checkRoot(h)
		}
		hosts = append(hosts, h)
	}
	return hosts
}

// checkRoot runs check 4 on a root that claims its fqdn alone, filling in
// its TLS and TCP proxy. It reports whether the root can serve.
func (pb *Result) checkRoot(h *proxyHost) bool {
	p := pb.proxies[h.root]
	st := pb.statuses[h.root]
	spec := &p.Spec
	ok := true
	if len(spec.Routes) == 0 && len(spec.Includes) == 0 && spec.TCPProxy == nil {
		st.addError(contourv1.ConditionTypeSpecError, "NothingDefined", "spec must have at least one route, include or tcpproxy; the fqdn %q answers 503.", h.fqdn)
		ok = false
	}
	cors, problem := contour.CORS(spec.VirtualHost.CORSPolicy, "spec.virtualhost.corsPolicy")
	if problem != "" {
		st.addError(contourv1.ConditionTypeCORSError, "PolicyDidNotParse", "%s The fqdn %q is refused rather than served without it.", problem, h.fqdn)
		ok = false
	} else {
		h.cors = cors
	}
	if h.ipFilter, problem = contour.IPFilter(spec.VirtualHost.IPAllowFilterPolicy, spec.VirtualHost.IPDenyFilterPolicy, "spec.virtualhost"); problem != "" {
		st.addError(contourv1.ConditionTypeIPFilterError, "PolicyNotValid", "%s The fqdn %q is refused rather than served without it.", problem, h.fqdn)
		ok = false
	}
	if h.rateLimit, problem = contour.RateLimit(spec.VirtualHost.RateLimitPolicy, "spec.virtualhost.rateLimitPolicy"); problem == "" {
		h.globalRate, problem = pb.globalRateLimit(spec.VirtualHost.RateLimitPolicy, "spec.virtualhost.rateLimitPolicy", false)
	}
	if problem != "" {
		st.addError(contourv1.ConditionTypeVirtualHostError, "RateLimitPolicyNotValid", "%s The fqdn %q is refused rather than served without it.", problem, h.fqdn)
		ok = false
	}
	if t := spec.VirtualHost.TLS; t != nil {
		var problem string
		if h.tls, problem = pb.rootTLS(p, t, spec.TCPProxy != nil); problem != "" {
			st.addError(contourv1.ConditionTypeTLSError, "TLSConfigNotValid", "spec.virtualhost.tls: %s", problem)
			ok = false
		}
		if h.tls != nil {
			for _, c := range h.tls.certificates {
				if c.Notice != "" {
					st.addWarning(contourv1.ConditionTypeTLSError, "CertificateChainTrimmed", "spec.virtualhost.tls.secretName: %s", c.Notice)
				}
			}
		}
	}
	if t := spec.VirtualHost.TLS; t != nil && t.EnableFallbackCertificate && ok {
		if problem := pb.checkFallback(p, h); problem != "" {
			st.addError(contourv1.ConditionTypeTLSError, "FallbackNotValid", "%s The fqdn %q is refused rather than served otherwise than asked.", problem, h.fqdn)
			ok = false
		}
	}
	if len(spec.VirtualHost.JWTProviders) > 0 && ok {
		if problem := pb.rootJWT(p, h, h.tls); problem != "" {
			st.addError(contourv1.ConditionTypeJWTVerificationError, "JWTProviderNotValid", "%s The fqdn %q is refused rather than served without it.", problem, h.fqdn)
			ok = false
		}
	}
	if spec.VirtualHost.Authorization != nil && ok {
		if problem := pb.rootAuthorization(p, h, h.tls); problem != "" {
			st.addError(contourv1.ConditionTypeAuthError, "AuthorizationNotValid", "%s The fqdn %q is refused rather than served without it.", problem, h.fqdn)
			ok = false
		}
	}
	if spec.TCPProxy != nil {
		if spec.VirtualHost.TLS == nil {
			st.addError(contourv1.ConditionTypeTCPProxyError, "TLSMustBeConfigured", "spec.tcpproxy requires spec.virtualhost.tls with passthrough or a secretName: Envoy tells TCP proxies apart by the TLS server name.")
			ok = false
		} else if ok {
			var failed types.NamespacedName
			h.tcp, failed = pb.tcpProxy(p)
			ok = h.tcp != nil
			if !ok && failed != h.root {
				st.addError(contourv1.ConditionTypeTCPProxyIncludeError, "IncludeNotValid",
					"spec.tcpproxy.include: the TCP proxy of %s, which the include chain leads to, cannot be served (see its status); the fqdn %q is refused.", failed, h.fqdn)
			}
		}
	}
	return ok
}

// rootTLS reads a root's TLS settings.
func (pb *Result) rootTLS(p *contourv1.HTTPProxy, t *contourv1.TLS, hasTCPProxy bool) (*proxyTLS, string) {
	out := &proxyTLS{minVersion: t.MinimumProtocolVersion, maxVersion: t.MaximumProtocolVersion}
	for _, v := range []struct{ field, value string }{{"minimumProtocolVersion", t.MinimumProtocolVersion}, {"maximumProtocolVersion", t.MaximumProtocolVersion}} {
		if v.value != "" && v.value != "1.2" && v.value != "1.3" {
			return nil, fmt.Sprintf("%s %q is not \"1.2\" or \"1.3\".", v.field, v.value)
		}
	}
	if out.minVersion == "1.3" && out.maxVersion == "1.2" {
		return nil, "minimumProtocolVersion 1.3 is above maximumProtocolVersion 1.2."
	}
	switch {
	case t.Passthrough && t.SecretName != "":
		return nil, "both passthrough and secretName are set; give one."
	case t.Passthrough && !hasTCPProxy:
		return nil, "passthrough needs spec.tcpproxy: a connection that is not terminated can only be forwarded."
	case t.Passthrough && t.ClientValidation != nil:
		_, problem := contour.ClientValidation(pb.index, p.Namespace, t.ClientValidation, true)
		return nil, problem
	case t.Passthrough:
		return out, ""
	case strings.TrimSpace(t.SecretName) == "":
		return nil, "neither passthrough nor secretName is set."
	}
	ns, name, found := strings.Cut(t.SecretName, "/")
	if !found {
		ns, name = p.Namespace, t.SecretName
	}
	if ns != p.Namespace {
		pb.index.ReferToSecret(types.NamespacedName{Namespace: ns, Name: name})
		return nil, fmt.Sprintf("secretName %q is in another namespace; this version of Sesame does not read TLSCertificateDelegation, so the Secret must be in %q.", t.SecretName, p.Namespace)
	}
	secret, problem := pb.index.TLSSecret(types.NamespacedName{Namespace: ns, Name: name})
	if problem != "" {
		return nil, "secretName: " + problem
	}
	out.certificates = []*graph.Secret{secret}
	if t.ClientValidation != nil {
		if out.client, problem = contour.ClientValidation(pb.index, p.Namespace, t.ClientValidation, false); problem != "" {
			return nil, problem
		}
	}
	return out, ""
}

func joinNames(names []types.NamespacedName) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = n.String()
	}
	return strings.Join(s, ", ")
}

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}
