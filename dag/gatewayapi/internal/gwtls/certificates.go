package gwtls

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// Certificate resolves one certificateRef of a listener of gw: the Secret,
// checked to hold a certificate chain and the private key that matches it,
// or the listener's ResolvedRefs reason and a message saying why it cannot
// be used: RefNotPermitted for a cross-namespace reference no
// ReferenceGrant allows, otherwise InvalidCertificateRef.
func Certificate(index *refs.Index, ref gatewayv1.SecretObjectReference, gw *gatewayv1.Gateway) (*graph.Secret, string, string) {
	invalid := string(gatewayv1.ListenerReasonInvalidCertificateRef)
	group, kind := refs.ValueOr(ref.Group, ""), refs.ValueOr(ref.Kind, "Secret")
	name := types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, gw.Namespace), Name: string(ref.Name)}
	if group != "" || kind != "Secret" {
		return nil, invalid, fmt.Sprintf("kind %s is not supported; certificates are core Secrets.", refs.GroupKind(group, kind))
	}
	if !index.Permitted(refs.Reference{
		FromGroup: gatewayv1.GroupName, FromKind: "Gateway", FromNamespace: gw.Namespace,
		ToGroup: "", ToKind: "Secret", ToNamespace: name.Namespace, ToName: name.Name,
	}) {
		index.ReferToSecret(name)
		return nil, string(gatewayv1.ListenerReasonRefNotPermitted),
			fmt.Sprintf("Secret %s is in another namespace and no ReferenceGrant in %q allows Gateways from %q to refer to it.", report.RefName(name), report.Value(name.Namespace), gw.Namespace)
	}
	secret, problem := index.TLSSecret(name)
	if problem != "" {
		return nil, invalid, problem
	}
	return secret, "", ""
}
