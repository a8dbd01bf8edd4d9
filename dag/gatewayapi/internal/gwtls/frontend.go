package gwtls

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// Frontend is a Gateway's spec.tls.frontend, resolved per port on demand.
// Its CA certificates come from ConfigMaps or Secrets ("ca.crt"), in
// another namespace only with a ReferenceGrant.
type Frontend struct {
	index    *refs.Index
	gw       *gatewayv1.Gateway
	frontend *gatewayv1.FrontendTLSConfig
	byField  map[string]*Validation
}

// Validation is the client validation of the HTTPS listeners of a port.
type Validation struct {
	// Field is the field it comes from: the default's or a perPort entry's.
	Field string
	// Client is how clients are verified; nil when no CA certificate can
	// be used, or Mode is not one the API defines (Unsupported).
	Client *graph.ClientValidation
	// Reason is the listeners' ResolvedRefs reason for Problems: that of
	// the first reference that cannot be used
	// (InvalidCACertificateKind, RefNotPermitted or
	// InvalidCACertificateRef), or UnsupportedValue for the mode.
	Reason      string
	Problems    []string
	Unsupported bool
}

// NewFrontend returns gw's frontend validation, or nil when it has none.
func NewFrontend(index *refs.Index, gw *gatewayv1.Gateway) *Frontend {
	if gw.Spec.TLS == nil || gw.Spec.TLS.Frontend == nil {
		return nil
	}
	return &Frontend{index: index, gw: gw, frontend: gw.Spec.TLS.Frontend, byField: map[string]*Validation{}}
}

// ForPort is the validation of HTTPS listeners on port: the perPort entry
// of the port, or else the default; nil when the one that applies asks
// for no validation.
func (f *Frontend) ForPort(port gatewayv1.PortNumber) *Validation {
	field, v := "spec.tls.frontend.default.validation", f.frontend.Default.Validation
	for i := range f.frontend.PerPort {
		if f.frontend.PerPort[i].Port == port {
			field, v = fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation", i), f.frontend.PerPort[i].TLS.Validation
			break
		}
	}
	if v == nil {
		return nil
	}
	if r, ok := f.byField[field]; ok {
		return r
	}
	r := f.resolve(field, v)
	f.byField[field] = r
	return r
}

func (f *Frontend) resolve(field string, v *gatewayv1.FrontendTLSValidation) *Validation {
	r := &Validation{Field: field}
	var bundle []byte
	for i, ref := range v.CACertificateRefs {
		at := fmt.Sprintf("%s.caCertificateRefs[%d]", field, i)
		reason, problem := "", ""
		name := types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, f.gw.Namespace), Name: string(ref.Name)}
		if ref.Group == "" && (ref.Kind == "ConfigMap" || ref.Kind == "Secret") && !f.index.Permitted(refs.Reference{
			FromGroup: gatewayv1.GroupName, FromKind: "Gateway", FromNamespace: f.gw.Namespace,
			ToGroup: "", ToKind: string(ref.Kind), ToNamespace: name.Namespace, ToName: name.Name,
		}) {
			reason = string(gatewayv1.ListenerReasonRefNotPermitted)
			problem = fmt.Sprintf("%s %s is in another namespace and no ReferenceGrant in %q allows Gateways from %q to refer to it.", ref.Kind, report.RefName(name), report.Value(name.Namespace), f.gw.Namespace)
		} else {
			data, p, kindProblem := f.index.CACertificates(string(ref.Group), string(ref.Kind), name)
			switch {
			case kindProblem:
				reason, problem = string(gatewayv1.ListenerReasonInvalidCACertificateKind), p
			case p != "":
				reason, problem = string(gatewayv1.ListenerReasonInvalidCACertificateRef), p
			default:
				bundle = append(bundle, data...)
				continue
			}
		}
		if r.Reason == "" {
			r.Reason = reason
		}
		r.Problems = append(r.Problems, at+": "+problem)
	}
	switch v.Mode {
	case "", gatewayv1.AllowValidOnly, gatewayv1.AllowInsecureFallback:
	default:
		r.Reason, r.Unsupported = string(gatewayv1.ListenerReasonUnsupportedValue), true
		r.Problems = append(r.Problems, fmt.Sprintf("%s.mode %q is not AllowValidOnly or AllowInsecureFallback.", field, report.Value(v.Mode)))
		return r
	}
	if len(bundle) > 0 {
		fallback := v.Mode == gatewayv1.AllowInsecureFallback
		r.Client = &graph.ClientValidation{CA: bundle, Optional: fallback, AcceptUntrusted: fallback}
	}
	return r
}

// Insecure lists the fields that set AllowInsecureFallback, for the
// Gateway's InsecureFrontendValidationMode condition.
func (f *Frontend) Insecure() []string {
	var out []string
	if v := f.frontend.Default.Validation; v != nil && v.Mode == gatewayv1.AllowInsecureFallback {
		out = append(out, "spec.tls.frontend.default.validation")
	}
	for i := range f.frontend.PerPort {
		if v := f.frontend.PerPort[i].TLS.Validation; v != nil && v.Mode == gatewayv1.AllowInsecureFallback {
			out = append(out, fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation", i))
		}
	}
	return out
}
