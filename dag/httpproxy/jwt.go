// JSON Web Token verification of TLS roots (spec.virtualhost.jwtProviders
// and routes' jwtVerificationPolicy), as Contour documents it:
//
//	virtualhost:
//	  tls: {secretName: app-tls}
//	  jwtProviders:
//	  - name: idp
//	    default: true
//	    issuer: https://idp.example.com
//	    audiences: [app]
//	    remoteJWKS: {uri: https://idp.example.com/jwks.json, timeout: 2s, cacheDuration: 10m,
//	                 validation: {caSecret: idp-ca, subjectName: idp.example.com}}
//	    forwardJWT: true
//	  - name: local
//	    localJWKS: {secretName: jwks, key: jwks.json}
//	routes:
//	- conditions: [{prefix: /css}]
//	  jwtVerificationPolicy: {disabled: true}
//	- conditions: [{prefix: /internal}]
//	  jwtVerificationPolicy: {require: local}
//
// Envoy's jwt_authn filter on the root's HTTPS filter chain verifies the
// token of each request whose route requires a provider: the route's
// require, or else the default provider, unless the route disables
// verification; a request without a valid token is answered 401. A
// remote JWKS is fetched through a cluster of its own that finds the
// host by DNS ("dns/<host>/<port>[/tls]", with the validation after it),
// over TLS with the host as SNI for https; a local one is read from a
// Secret of the root's namespace and must be a JSON object.
//
// Like authorization (authz.go), verification needs TLS terminated by
// Envoy, and a permitInsecure route that requires a token redirects to
// https instead (a warning). Routes of included proxies take the root's
// default, and may require another provider or disable verification for
// their own routes (Contour's documented rule). A provider that cannot
// be used (no JWKS or both, a duplicate name, a second default, a JWKS URI
// that is not http(s), validation of an http URI, a Secret without the
// key) refuses the fqdn (JWTVerificationError); a route that requires a
// provider the root does not have answers 503.

package httpproxy

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/internal/report"
)

// rootJWT reads the JWT providers of root p, whose TLS is tls, into h.
func (pb *Result) rootJWT(p *contourv1.HTTPProxy, h *proxyHost, tls *proxyTLS) string {
	providers := p.Spec.VirtualHost.JWTProviders
	if tls == nil || len(tls.certificates) == 0 {
		return "spec.virtualhost.jwtProviders needs TLS terminated by Envoy (spec.virtualhost.tls.secretName): tokens are verified on the HTTPS filter chain."
	}
	out := &graph.JWTAuthn{}
	seen := map[string]bool{}
	for i := range providers {
		jp := &providers[i]
		at := fmt.Sprintf("spec.virtualhost.jwtProviders[%d]", i)
		switch {
		case jp.Name == "":
			return at + ".name is required."
		case seen[jp.Name]:
			return fmt.Sprintf("%s.name %q is not unique.", at, report.Value(jp.Name))
		case jp.Default && h.jwtDefault != "":
			return fmt.Sprintf("%s is a second default provider, after %q; at most one may be the default.", at, h.jwtDefault)
		}
		seen[jp.Name] = true
		if jp.Default {
			h.jwtDefault = jp.Name
		}
		provider := graph.JWTProvider{Name: jp.Name, Issuer: jp.Issuer, Audiences: jp.Audiences, Forward: jp.ForwardJWT}
		remote, local := jp.RemoteJWKS != (contourv1.RemoteJWKS{}), jp.LocalJWKS != (contourv1.LocalJWKS{})
		switch {
		case remote == local:
			return at + " must set one of remoteJWKS and localJWKS."
		case remote:
			var problem string
			if provider.Remote, problem = pb.remoteJWKS(p.Namespace, &jp.RemoteJWKS, at+".remoteJWKS"); problem != "" {
				return problem
			}
		default:
			data, problem := pb.index.SecretData(types.NamespacedName{Namespace: p.Namespace, Name: jp.LocalJWKS.SecretName}, jp.LocalJWKS.Key)
			if problem != "" {
				return fmt.Sprintf("%s.localJWKS: %s", at, problem)
			}
			var set map[string]json.RawMessage
			if err := json.Unmarshal(data, &set); err != nil || set["keys"] == nil {
				return fmt.Sprintf("%s.localJWKS: key %q of Secret %s is not a JWKS (a JSON object with \"keys\").", at, report.Value(jp.LocalJWKS.Key), jp.LocalJWKS.SecretName)
			}
			provider.LocalJWKS = string(data)
		}
		out.Providers = append(out.Providers, provider)
	}
	h.jwt = out
	return ""
}

// remoteJWKS reads a remote JWKS at field, with its DNS cluster; equal
// clusters are one.
func (pb *Result) remoteJWKS(namespace string, r *contourv1.RemoteJWKS, field string) (*graph.RemoteJWKS, string) {
	u, err := url.Parse(r.URI)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return nil, fmt.Sprintf("%s.uri %q is not an http or https URI with a host.", field, report.Value(r.URI))
	}
	c := &graph.DNSCluster{Host: u.Hostname(), Port: 80, TLS: u.Scheme == "https"}
	if c.TLS {
		c.Port = 443
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return nil, fmt.Sprintf("%s.uri %q has port %q, not 1 to 65535.", field, report.Value(r.URI), p)
		}
		c.Port = uint32(n)
	}
	switch f := r.DNSLookupFamily; f {
	case "", "auto":
	case "v4", "v6", "all":
		c.LookupFamily = f
	default:
		return nil, fmt.Sprintf("%s.dnsLookupFamily %q is not auto, v4, v6 or all.", field, report.Value(f))
	}
	c.Name = "dns/" + net.JoinHostPort(c.Host, strconv.Itoa(int(c.Port)))
	if c.TLS {
		c.Name += "/tls"
	}
	if v := r.UpstreamValidation; v != nil {
		if !c.TLS {
			return nil, fmt.Sprintf("%s.validation needs an https uri.", field)
		}
		tls, _, ca, problem := contour.UpstreamValidation(pb.index, namespace, v, "tls", c.Host)
		if problem != "" {
			return nil, fmt.Sprintf("%s.%s", field, problem)
		}
		c.Validation = tls
		c.Name += "/validation/" + namespace + "/" + ca + "/" + tls.SubjectAltNames[0].Value
	}
	if c.LookupFamily != "" {
		c.Name += "/" + c.LookupFamily
	}
	if shared, ok := pb.dnsClusters[c.Name]; ok {
		c = shared
	} else {
		if pb.dnsClusters == nil {
			pb.dnsClusters = map[string]*graph.DNSCluster{}
		}
		pb.dnsClusters[c.Name] = c
	}
	out := &graph.RemoteJWKS{URI: r.URI, Cluster: c, Timeout: time.Second}
	for _, d := range []struct {
		name, value string
		into        **time.Duration
	}{{"timeout", r.Timeout, nil}, {"cacheDuration", r.CacheDuration, &out.CacheDuration}} {
		if d.value == "" {
			continue
		}
		v, problem := contour.Duration(d.value, field+"."+d.name)
		switch {
		case problem != "":
			return nil, problem
		case *v <= 0:
			return nil, fmt.Sprintf("%s.%s %q must be above 0.", field, d.name, report.Value(d.value))
		case d.into == nil:
			out.Timeout = *v
		default:
			*d.into = v
		}
	}
	return out, ""
}

// routeJWT is what a route with policy (nil for none) requires of its
// host h, or the problem when it requires a provider h does not have.
func routeJWT(h *proxyHost, policy *contourv1.JWTVerificationPolicy) (*graph.RouteJWT, string) {
	switch {
	case policy != nil && policy.Disabled:
		if h.jwt == nil {
			return nil, ""
		}
		return &graph.RouteJWT{Disabled: true}, ""
	case policy != nil && policy.Require != "":
		if h.jwt != nil {
			for _, p := range h.jwt.Providers {
				if p.Name == policy.Require {
					return &graph.RouteJWT{Provider: p.Name}, ""
				}
			}
		}
		return nil, fmt.Sprintf("jwtVerificationPolicy.require %q names no JWT provider of the virtual host %q", report.Value(policy.Require), h.fqdn)
	case h.jwtDefault != "":
		return &graph.RouteJWT{Provider: h.jwtDefault}, ""
	}
	return nil, ""
}
