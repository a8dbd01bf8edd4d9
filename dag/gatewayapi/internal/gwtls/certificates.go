package gwtls

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// Certificate resolves one certificateRef of a listener of a Gateway or a
// ListenerSet (fromKind) in namespace: the Secret,
// checked to hold a certificate chain and the private key that matches it,
// or the listener's ResolvedRefs reason and a message saying why it cannot
// be used: RefNotPermitted for a cross-namespace reference no
// ReferenceGrant allows, otherwise InvalidCertificateRef.
func Certificate(index *refs.Index, ref gatewayv1.SecretObjectReference, fromKind, namespace string) (*graph.Secret, string, string) {
	invalid := string(gatewayv1.ListenerReasonInvalidCertificateRef)
	group, kind := refs.ValueOr(ref.Group, ""), refs.ValueOr(ref.Kind, "Secret")
	name := types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, namespace), Name: string(ref.Name)}
	if group != "" || kind != "Secret" {
		return nil, invalid, fmt.Sprintf("kind %s is not supported; certificates are core Secrets.", refs.GroupKind(group, kind))
	}
	if !index.Permitted(refs.Reference{
		FromGroup: gatewayv1.GroupName, FromKind: fromKind, FromNamespace: namespace,
		ToGroup: "", ToKind: "Secret", ToNamespace: name.Namespace, ToName: name.Name,
	}) {
		index.ReferToSecret(name)
		return nil, string(gatewayv1.ListenerReasonRefNotPermitted),
			fmt.Sprintf("Secret %s is in another namespace and no ReferenceGrant in %q allows %ss from %q to refer to it.", report.RefName(name), report.Value(name.Namespace), fromKind, namespace)
	}
	secret, problem := index.TLSSecret(name)
	if problem != "" {
		return nil, invalid, problem
	}
	return secret, "", ""
}
