package ingress

import (
	"slices"
	"strings"

	networkingv1 "k8s.io/api/networking/v1"
)

// An Ingress that names no class is Sesame's (as it is Contour's), and
// one moved from another controller keeps that controller's annotations.
// Those that protect traffic (authentication, client certificates, IP
// allow and deny lists, rate limits, CORS, a web application firewall)
// cannot be dropped silently: the Ingress fails closed, every path
// answering 503, and a Warning Event names them. The others of known
// controllers are named in an Event as not translated.

// protectiveAnnotations are the annotations of other Ingress controllers
// that protect traffic, with what they ask for. A value of "false" (or,
// for client certificate verification, "off") asks for nothing.
var protectiveAnnotations = map[string]string{
	"nginx.ingress.kubernetes.io/auth-type":               "authentication",
	"nginx.ingress.kubernetes.io/auth-url":                "external authentication",
	"nginx.ingress.kubernetes.io/auth-tls-secret":         "client certificate verification",
	"nginx.ingress.kubernetes.io/auth-tls-verify-client":  "client certificate verification",
	"nginx.ingress.kubernetes.io/whitelist-source-range":  "an IP allow list",
	"nginx.ingress.kubernetes.io/allowlist-source-range":  "an IP allow list",
	"nginx.ingress.kubernetes.io/denylist-source-range":   "an IP deny list",
	"nginx.ingress.kubernetes.io/limit-rps":               "rate limits",
	"nginx.ingress.kubernetes.io/limit-rpm":               "rate limits",
	"nginx.ingress.kubernetes.io/limit-connections":       "rate limits",
	"nginx.ingress.kubernetes.io/global-rate-limit":       "rate limits",
	"nginx.ingress.kubernetes.io/enable-cors":             "CORS",
	"nginx.ingress.kubernetes.io/enable-modsecurity":      "a web application firewall",
	"nginx.ingress.kubernetes.io/enable-owasp-core-rules": "a web application firewall",
	"nginx.org/basic-auth-secret":                         "authentication",
	"haproxy.org/auth-type":                               "authentication",
	"haproxy.org/allow-list":                              "an IP allow list",
	"haproxy.org/deny-list":                               "an IP deny list",
	"haproxy.org/whitelist":                               "an IP allow list",
	"haproxy.org/blacklist":                               "an IP deny list",
	"haproxy.org/rate-limit-requests":                     "rate limits",
	"alb.ingress.kubernetes.io/auth-type":                 "authentication",
	"alb.ingress.kubernetes.io/inbound-cidrs":             "an IP allow list",
	"alb.ingress.kubernetes.io/wafv2-acl-arn":             "a web application firewall",
}

// foreignPrefixes are the annotation prefixes of other Ingress controllers,
// with their names.
var foreignPrefixes = []struct{ prefix, controller string }{
	{"nginx.ingress.kubernetes.io/", "ingress-nginx"},
	{"nginx.org/", "NGINX Ingress Controller"},
	{"haproxy.org/", "HAProxy Ingress"},
	{"traefik.ingress.kubernetes.io/", "Traefik"},
	{"konghq.com/", "Kong"},
	{"alb.ingress.kubernetes.io/", "AWS Load Balancer Controller"},
}

// otherControllers sorts the annotations of ing that belong to other
// Ingress controllers: those that protect traffic, with what they ask for
// ("key (what)"), and the rest.
func otherControllers(ing *networkingv1.Ingress) (protective, other []string) {
	for k, v := range ing.Annotations {
		if what, ok := protectiveAnnotations[k]; ok && !disabled(k, v) {
			protective = append(protective, k+" ("+what+")")
			continue
		}
		for _, f := range foreignPrefixes {
			if strings.HasPrefix(k, f.prefix) {
				other = append(other, k)
				break
			}
		}
	}
	slices.Sort(protective)
	slices.Sort(other)
	return protective, other
}

// disabled says an annotation's value asks for nothing.
func disabled(key, value string) bool {
	v := strings.ToLower(strings.TrimSpace(value))
	return v == "" || v == "false" || strings.HasSuffix(key, "/auth-tls-verify-client") && v == "off"
}

// controllersOf names the controllers annotations belong to.
func controllersOf(annotations []string) string {
	var names []string
	for _, a := range annotations {
		for _, f := range foreignPrefixes {
			if strings.HasPrefix(a, f.prefix) && !slices.Contains(names, f.controller) {
				names = append(names, f.controller)
			}
		}
	}
	return strings.Join(names, ", ")
}
