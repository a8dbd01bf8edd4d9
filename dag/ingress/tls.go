// Ingress TLS and annotations.
//
// spec.tls[i] names a kubernetes.io/tls Secret (secretName, in the
// Ingress's namespace; "<namespace>/<name>" is read only for the same
// namespace, as Sesame does not read Contour's TLSCertificateDelegation) and
// the hosts its certificate serves. Each host listed gets a filter chain on
// the HTTPS port with that server name and certificate, whose routes are
// those of every Ingress rule with that host; it stays on the HTTP port too
// (Contour serves both) unless an annotation says otherwise. Hosts are
// claimed in order: of two entries for one host with different Secrets, the
// oldest Ingress's first entry is used, and the other Ingress is told. An
// entry without hosts serves nothing (Contour reads only listed hosts); an
// entry whose Secret cannot be used leaves its hosts on HTTP only.
//
// Annotations, read per Ingress:
//
//	ingress.kubernetes.io/force-ssl-redirect: "true"   over HTTP, every route of the
//	                                                   Ingress answers 301 to the same
//	                                                   URL over https (port 443), as in
//	                                                   Contour, also for hosts no Ingress
//	                                                   serves over TLS (the Ingress is told)
//	kubernetes.io/ingress.allow-http: "false"          the Ingress's routes are not served
//	                                                   over HTTP (force-ssl-redirect wins:
//	                                                   its redirects stay)
//
// Contour reads more annotations (projectcontour.io/..., such as timeouts,
// retries, websocket routes and TLS versions). Sesame does not translate
// them; an Ingress that sets them is told they are ignored.

package ingress

import (
	"fmt"
	"slices"
	"strings"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// ingressTLSClaim is the spec.tls entry that serves a host over TLS.
type ingressTLSClaim struct {
	secret *graph.Secret
	owner  report.ObjectKey
	field  string // spec.tls[i].hosts[j]
}

// readAnnotations tells an Ingress about annotations it sets that Sesame
// reads differently from what it says, or not at all.
func (ib *ingressBuild) readAnnotations(ing *networkingv1.Ingress) {
	for _, a := range []string{forceSSLRedirectAnnotation, allowHTTPAnnotation} {
		if v, ok := ing.Annotations[a]; ok && v != "true" && v != "false" {
			ib.event(ing, graph.EventWarning, "InvalidAnnotation", "annotation %s is %q; it is read only as \"true\" or \"false\", so it has no effect.", a, v)
		}
	}
	var ignored []string
	for k := range ing.Annotations {
		if strings.HasPrefix(k, "projectcontour.io/") || strings.HasPrefix(k, "contour.heptio.com/") {
			ignored = append(ignored, k)
		}
	}
	if len(ignored) > 0 {
		slices.Sort(ignored)
		ib.event(ing, graph.EventWarning, "AnnotationNotTranslated", "annotations %s are Contour's, which Sesame does not translate; they are ignored. Use an HTTPProxy for these features.", strings.Join(ignored, ", "))
	}
	protective, other := otherControllers(ing)
	if len(protective) > 0 {
		if ib.closed == nil {
			ib.closed = map[*networkingv1.Ingress]bool{}
		}
		ib.closed[ing] = true
		ib.event(ing, graph.EventWarning, "ProtectionNotApplied", "annotations %s ask %s to protect traffic, which Sesame cannot do as they ask, so every path of the Ingress answers 503 rather than be served without it. Use an HTTPProxy (authorization, ipAllowPolicy, rateLimitPolicy, corsPolicy, clientValidation) for these features.", strings.Join(protective, ", "), controllersOf(protective))
	}
	if len(other) > 0 {
		ib.event(ing, graph.EventWarning, "AnnotationNotTranslated", "annotations %s are %s's, which Sesame does not translate; they are ignored.", strings.Join(other, ", "), controllersOf(other))
	}
}

// claimTLS reads an Ingress's spec.tls and claims its hosts.
func (ib *ingressBuild) claimTLS(ing *networkingv1.Ingress) {
	for i := range ing.Spec.TLS {
		t := &ing.Spec.TLS[i]
		field := fmt.Sprintf("spec.tls[%d]", i)
		if len(t.Hosts) == 0 {
			ib.event(ing, graph.EventWarning, "TLSWithoutHosts", "%s lists no hosts; Sesame serves TLS only for the hosts an entry lists (as Contour does), so nothing is served with its Secret. List the hosts its certificate is for.", field)
			continue
		}
		secret, problem := ib.ingressSecret(ing, t.SecretName)
		if problem != "" {
			ib.event(ing, graph.EventWarning, "TLSSecretInvalid", "%s.secretName: %s Its hosts (%s) get no TLS from this entry.", field, problem, strings.Join(t.Hosts, ", "))
			continue
		}
		if secret.Notice != "" {
			ib.event(ing, graph.EventWarning, "CertificateChainTrimmed", "%s.secretName: %s", field, secret.Notice)
		}
		for j, h := range t.Hosts {
			at := fmt.Sprintf("%s.hosts[%d]", field, j)
			host := strings.ToLower(h)
			if host == "" {
				ib.event(ing, graph.EventWarning, "InvalidHost", "%s is empty; TLS needs a hostname (the server name clients send).", at)
				continue
			}
			if err := hostmatch.Validate(host); err != nil {
				ib.event(ing, graph.EventWarning, "InvalidHost", "%s %q: %v; it is not served over TLS.", at, report.Value(h), err)
				continue
			}
			if ib.refuseOwned(ing, at, host, "its Secret is not used for it") {
				continue
			}
			old := ib.tls[host]
			switch {
			case old == nil:
				ib.tls[host] = &ingressTLSClaim{secret: secret, owner: ingressKey(ing), field: at}
			case old.secret != secret:
				by := fmt.Sprintf("an earlier entry of this Ingress (%s)", old.field)
				if old.owner != ingressKey(ing) {
					by = fmt.Sprintf("Ingress %s/%s (%s), which is older,", old.owner.Namespace, old.owner.Name, old.field)
				}
				ib.event(ing, graph.EventWarning, "TLSCertificateConflict",
					"%s %q: %s serves it with Secret %s, so this entry's Secret %s is not used for it. Use one Secret per host.",
					at, host, by, old.secret.Name, secret.Name)
			}
		}
	}
}

// ingressSecret reads the Secret an Ingress's TLS entry names.
func (ib *ingressBuild) ingressSecret(ing *networkingv1.Ingress, secretName string) (*graph.Secret, string) {
	if strings.TrimSpace(secretName) == "" {
		return nil, "is empty; Sesame needs a kubernetes.io/tls Secret to terminate TLS."
	}
	ns, name, found := strings.Cut(secretName, "/")
	if !found {
		ns, name = ing.Namespace, secretName
	}
	if ns != ing.Namespace {
		ib.index.ReferToSecret(types.NamespacedName{Namespace: ns, Name: name})
		return nil, fmt.Sprintf("%q is in another namespace; Sesame does not read TLSCertificateDelegation, so the Secret must be in %q.", secretName, ing.Namespace)
	}
	return ib.index.TLSSecret(types.NamespacedName{Namespace: ns, Name: name})
}

// checkTLSHosts tells an Ingress about TLS that cannot work as written: a
// host it claims that no rule serves, and a redirect to https for a host
// that no Ingress serves over TLS.
func (ib *ingressBuild) checkTLSHosts(ing *networkingv1.Ingress) {
	for i, t := range ing.Spec.TLS {
		for j, h := range t.Hosts {
			host := strings.ToLower(h)
			claim := ib.tls[host]
			if claim == nil || claim.owner != ingressKey(ing) || claim.field != fmt.Sprintf("spec.tls[%d].hosts[%d]", i, j) {
				continue
			}
			if hh := ib.hosts[host]; hh == nil || len(hh.https) == 0 {
				ib.event(ing, graph.EventWarning, "TLSHostWithoutRules", "spec.tls[%d].hosts[%d] %q: no rule of any Ingress has this host, so there is nothing to serve over TLS for it. Add a rule with host %q.", i, j, host, host)
			}
		}
	}
	if ing.Annotations[forceSSLRedirectAnnotation] != "true" {
		return
	}
	var plain []string
	for i := range ing.Spec.Rules {
		host := strings.ToLower(ing.Spec.Rules[i].Host)
		if ib.tls[host] == nil && !slices.Contains(plain, report.DescribeHost(host)) {
			plain = append(plain, report.DescribeHost(host))
		}
	}
	if ing.Spec.DefaultBackend != nil && !slices.Contains(plain, report.DescribeHost("")) {
		plain = append(plain, report.DescribeHost(""))
	}
	if len(plain) > 0 {
		ib.event(ing, graph.EventWarning, "RedirectWithoutTLS",
			"annotation %s redirects every request over HTTP to https, but no Ingress serves %s over TLS (spec.tls), so those redirects lead nowhere Sesame serves. Add a spec.tls entry for the host, or remove the annotation.",
			forceSSLRedirectAnnotation, strings.Join(plain, ", "))
	}
}

// refuseOwned reports whether the part of ing at field, for host, is
// refused because an HTTPProxy root in another namespace owns host, and
// tells the Ingress and (through ib.refusals, as a notice) the root.
func (ib *ingressBuild) refuseOwned(ing *networkingv1.Ingress, field, host, what string) bool {
	root, ok := ib.claims.Owner(host)
	if !ok || root.Namespace == ing.Namespace {
		return false
	}
	ib.event(ing, graph.EventWarning, "HostOwnedByHTTPProxy",
		"%s (%s): the hostname belongs to HTTPProxy %s, a root in namespace %q, and only Ingresses in that namespace may add to it; %s. Have the root include an HTTPProxy of yours, or use another hostname.",
		field, report.DescribeHost(host), root, root.Namespace, what)
	ib.refusals = append(ib.refusals, layer.Notice{
		To:   report.ObjectKey{Kind: contourv1.HTTPProxyKind, Namespace: root.Namespace, Name: root.Name},
		Type: contourv1.ConditionTypeVirtualHostError, Reason: "IngressRefused",
		Message: fmt.Sprintf("Ingress %s/%s %s adds to %s, which this root owns; Ingresses outside namespace %q may not, so it is not served.",
			ing.Namespace, ing.Name, field, report.DescribeHost(host), root.Namespace),
	})
	return true
}
