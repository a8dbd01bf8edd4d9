// Upstream certificate validation of HTTPProxy services and ExtensionServices, as Contour
// documents its upstream TLS:
//
//	services: [{name: web, port: 443, protocol: tls,
//	            validation: {caSecret: web-ca, subjectName: web.internal}}]
//	    -> TLS to the endpoints; their certificate must chain to the CA
//	       bundle under "ca.crt" of Secret web-ca and carry web.internal
//
// caSecret is a Secret of the proxy's own namespace ("name", or
// "<namespace>/name" with that namespace: TLSCertificateDelegation is not
// read). subjectName is required; subjectNames, when set, lists names of
// which the certificate must carry one, subjectName first (a name with
// "://" is a URI, such as a SPIFFE ID; others are DNS names). The service
// must be spoken to over TLS: protocol tls or h2, or an appProtocol that
// says so. The Host that the service's or route's requestHeadersPolicy
// sets is sent as SNI, as Contour does; otherwise no SNI is sent.
//
// A validation that cannot be used costs its service its share of the
// route's requests, answered 503 (of a TCP proxy's connections, closed):
// the service is never spoken to without the verification asked for.

package contour

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// UpstreamValidation reads the validation of a service of an object in
// namespace, whose cluster speaks protocol, sending sni, with the CA
// bundle from idx. key tells validations apart: equal keys, equal
// validations. name is the CA Secret's name.
func UpstreamValidation(idx *refs.Index, namespace string, v *contourv1.UpstreamValidation, protocol, sni string) (tls *graph.UpstreamTLS, key, name, problem string) {
	if protocol != "tls" && protocol != "h2" {
		return nil, "", "", "validation needs TLS to the service: set protocol tls or h2 (or an appProtocol that says so)."
	}
	subjects := v.SubjectNames
	switch {
	case v.SubjectName == "":
		return nil, "", "", "validation.subjectName is required."
	case len(subjects) == 0:
		subjects = []string{v.SubjectName}
	case subjects[0] != v.SubjectName:
		return nil, "", "", fmt.Sprintf("validation.subjectNames[0] %q must be subjectName %q.", report.Value(subjects[0]), report.Value(v.SubjectName))
	case len(subjects) > 8:
		return nil, "", "", fmt.Sprintf("validation.subjectNames has %d names; at most 8.", len(subjects))
	}
	tls = &graph.UpstreamTLS{SNI: sni}
	for i, s := range subjects {
		if s == "" || len(s) > 250 || check.HeaderValue(s) != "" || strings.ContainsAny(s, " \t") {
			return nil, "", "", fmt.Sprintf("validation.subjectNames[%d] %q is not a DNS name or URI of at most 250 characters.", i, report.Value(s))
		}
		tls.SubjectAltNames = append(tls.SubjectAltNames, graph.SubjectAltName{URI: strings.Contains(s, "://"), Value: s})
	}
	ns, name, found := strings.Cut(v.CACertificate, "/")
	if !found {
		ns, name = namespace, v.CACertificate
	}
	ref := types.NamespacedName{Namespace: ns, Name: name}
	switch {
	case strings.TrimSpace(v.CACertificate) == "":
		return nil, "", "", "validation.caSecret is required."
	case ns != namespace:
		idx.ReferToSecret(ref)
		return nil, "", "", fmt.Sprintf("validation.caSecret %q is in another namespace; this version of Sesame does not read TLSCertificateDelegation, so the Secret must be in %q.", report.Value(v.CACertificate), namespace)
	}
	ca, caProblem, _ := idx.CACertificates("", "Secret", ref)
	if caProblem != "" {
		return nil, "", "", "validation.caSecret: " + caProblem
	}
	tls.CA = ca
	return tls, strings.Join(append([]string{ns, name, sni, string(ca)}, subjects...), "\x00"), name, ""
}
