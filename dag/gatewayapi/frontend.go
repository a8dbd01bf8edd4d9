package gatewayapi

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// resolveFrontendValidation gives the Gateway's accepted HTTPS listeners
// the client certificate validation of spec.tls.frontend: the perPort
// entry of the listener's port, or else the default. Its CA certificates
// come from ConfigMaps or Secrets ("ca.crt"), in another namespace only
// with a ReferenceGrant. Each reference that cannot be used makes the
// listeners it applies to ResolvedRefs=False, with the spec's reasons
// (InvalidCACertificateKind for another kind, RefNotPermitted without a
// grant, InvalidCACertificateRef otherwise); when none can be used, the
// listeners are rejected (Accepted=False, NoValidCACertificate): a
// listener meant to verify clients never serves without verifying them.
// It returns the fields that set AllowInsecureFallback, for the Gateway's
// InsecureFrontendValidationMode condition.
func (b *Builder) resolveFrontendValidation(g *gateway, gw *gatewayv1.Gateway) (insecure []string) {
	frontend := frontendOf(gw)
	if frontend == nil {
		return nil
	}
	type resolved struct {
		v        *graph.ClientValidation
		reason   string   // of the first problem
		problems []string // of the references that cannot be used
		field    string
	}
	cache := map[string]*resolved{} // by field
	resolve := func(field string, v *gatewayv1.FrontendTLSValidation) *resolved {
		if r, ok := cache[field]; ok {
			return r
		}
		r := &resolved{field: field}
		cache[field] = r
		var bundle []byte
		for i, ref := range v.CACertificateRefs {
			at := fmt.Sprintf("%s.caCertificateRefs[%d]", field, i)
			reason, problem := "", ""
			name := types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, gw.Namespace), Name: string(ref.Name)}
			switch {
			case ref.Group != "" || ref.Kind != "ConfigMap" && ref.Kind != "Secret":
				reason = string(gatewayv1.ListenerReasonInvalidCACertificateKind)
				problem = fmt.Sprintf("kind %s is not supported; CA certificates come from ConfigMaps and Secrets.", refs.GroupKind(string(ref.Group), string(ref.Kind)))
			case !b.index.Permitted(refs.Reference{
				FromGroup: gatewayv1.GroupName, FromKind: "Gateway", FromNamespace: gw.Namespace,
				ToGroup: "", ToKind: string(ref.Kind), ToNamespace: name.Namespace, ToName: name.Name,
			}):
				reason = string(gatewayv1.ListenerReasonRefNotPermitted)
				problem = fmt.Sprintf("%s %s is in another namespace and no ReferenceGrant in %q allows Gateways from %q to refer to it.", ref.Kind, report.RefName(name), report.Value(name.Namespace), gw.Namespace)
			default:
				var data []byte
				if data, problem = b.index.CACertificates(string(ref.Kind), name); problem == "" {
					bundle = append(bundle, data...)
					continue
				}
				reason = string(gatewayv1.ListenerReasonInvalidCACertificateRef)
			}
			if r.reason == "" {
				r.reason = reason
			}
			r.problems = append(r.problems, at+": "+problem)
		}
		switch v.Mode {
		case "", gatewayv1.AllowValidOnly, gatewayv1.AllowInsecureFallback:
		default:
			r.reason = string(gatewayv1.ListenerReasonUnsupportedValue)
			r.problems = append(r.problems, fmt.Sprintf("%s.mode %q is not AllowValidOnly or AllowInsecureFallback.", field, report.Value(v.Mode)))
			return r
		}
		if len(bundle) > 0 {
			r.v = &graph.ClientValidation{CA: bundle, Optional: v.Mode == gatewayv1.AllowInsecureFallback}
		}
		return r
	}
	for _, l := range g.listeners {
		if !l.accepted || l.spec.Protocol != gatewayv1.HTTPSProtocolType {
			continue
		}
		field, v := "spec.tls.frontend.default.validation", frontend.Default.Validation
		for i := range frontend.PerPort {
			if frontend.PerPort[i].Port == l.spec.Port {
				field, v = fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation", i), frontend.PerPort[i].TLS.Validation
				break
			}
		}
		if v == nil {
			continue
		}
		r := resolve(field, v)
		for _, p := range r.problems {
			l.refProblem(r.reason, p)
		}
		if r.v == nil {
			reason := string(gatewayv1.ListenerReasonNoValidCACertificate)
			if r.reason == string(gatewayv1.ListenerReasonUnsupportedValue) {
				reason = r.reason
			}
			l.reject(reason, fmt.Sprintf("Client certificates cannot be verified: no CA certificate of %s can be used: %s", field, strings.Join(r.problems, " ")))
			continue
		}
		l.clientValidation = r.v
	}
	if frontend.Default.Validation != nil && frontend.Default.Validation.Mode == gatewayv1.AllowInsecureFallback {
		insecure = append(insecure, "spec.tls.frontend.default.validation")
	}
	for i := range frontend.PerPort {
		if v := frontend.PerPort[i].TLS.Validation; v != nil && v.Mode == gatewayv1.AllowInsecureFallback {
			insecure = append(insecure, fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation", i))
		}
	}
	return insecure
}

func frontendOf(gw *gatewayv1.Gateway) *gatewayv1.FrontendTLSConfig {
	if gw.Spec.TLS == nil {
		return nil
	}
	return gw.Spec.TLS.Frontend
}
