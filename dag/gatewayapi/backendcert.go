package gatewayapi

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// resolveBackendCertificate resolves the Gateway's
// spec.tls.backend.clientCertificateRef, the certificate Envoy presents
// to backends it connects to over TLS (those a BackendTLSPolicy makes
// TLS): a kubernetes.io/tls Secret, in another namespace only with a
// ReferenceGrant. It sets g.backendCert, or g.backendCertProblem with the
// Gateway's ResolvedRefs reason (InvalidClientCertificateRef, or
// RefNotPermitted); without one, Envoy connects without a client
// certificate, and the status says so.
func (b *Builder) resolveBackendCertificate(g *gateway, gw *gatewayv1.Gateway) {
	if gw.Spec.TLS == nil || gw.Spec.TLS.Backend == nil || gw.Spec.TLS.Backend.ClientCertificateRef == nil {
		return
	}
	g.backendCertSet = true
	ref := gw.Spec.TLS.Backend.ClientCertificateRef
	const field = "spec.tls.backend.clientCertificateRef"
	invalid := string(gatewayv1.GatewayReasonInvalidClientCertificateRef)
	group, kind := refs.ValueOr(ref.Group, ""), refs.ValueOr(ref.Kind, "Secret")
	name := types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, gw.Namespace), Name: string(ref.Name)}
	switch {
	case group != "" || kind != "Secret":
		g.backendCertReason, g.backendCertProblem = invalid, fmt.Sprintf("%s: kind %s is not supported; client certificates are core Secrets.", field, refs.GroupKind(group, kind))
	case !b.index.Permitted(refs.Reference{
		FromGroup: gatewayv1.GroupName, FromKind: "Gateway", FromNamespace: gw.Namespace,
		ToGroup: "", ToKind: "Secret", ToNamespace: name.Namespace, ToName: name.Name,
	}):
		b.index.ReferToSecret(name)
		g.backendCertReason = string(gatewayv1.GatewayReasonRefNotPermitted)
		g.backendCertProblem = fmt.Sprintf("%s: Secret %s is in another namespace and no ReferenceGrant in %q allows Gateways from %q to refer to it.", field, report.RefName(name), report.Value(name.Namespace), gw.Namespace)
	default:
		secret, problem := b.index.TLSSecret(name)
		if problem != "" {
			g.backendCertReason, g.backendCertProblem = invalid, field+": "+problem
			return
		}
		g.backendCert = secret
	}
}

// backendCertCondition sets the Gateway's ResolvedRefs condition when it
// names a backend client certificate.
func backendCertCondition(g *gateway, cond *report.Conditions) {
	switch {
	case !g.backendCertSet:
	case g.backendCert != nil:
		cond.Set(string(gatewayv1.GatewayConditionResolvedRefs), true, string(gatewayv1.GatewayReasonResolvedRefs),
			fmt.Sprintf("Envoy presents Secret %s to backends it connects to over TLS.", report.RefName(g.backendCert.Name)))
	default:
		cond.Set(string(gatewayv1.GatewayConditionResolvedRefs), false, g.backendCertReason,
			g.backendCertProblem+" Envoy connects to TLS backends without a client certificate.")
	}
}

// presentBackendCertificate makes the routes of vhosts, a Gateway's, send
// traffic to TLS clusters that present cert: each route with a
// BackendTLSPolicy's cluster is replaced by a copy that sends to the
// Gateway's own variant of that cluster. Virtual hosts get new route
// slices, as compiled routes and their slices may be shared with other
// Gateways.
func (b *Builder) presentBackendCertificate(cert *graph.Secret, vhosts []*graph.VirtualHost, copies map[*graph.Route]*graph.Route) {
	for _, vh := range vhosts {
		var routes []*graph.Route
		for i, r := range vh.Routes {
			c := b.withClientCertificate(r, cert, copies)
			if c == r {
				continue
			}
			if routes == nil {
				routes = append([]*graph.Route(nil), vh.Routes...)
			}
			routes[i] = c
		}
		if routes != nil {
			vh.Routes = routes
		}
	}
}

// withClientCertificate returns r, or a copy of it whose TLS clusters
// present cert.
func (b *Builder) withClientCertificate(r *graph.Route, cert *graph.Secret, copies map[*graph.Route]*graph.Route) *graph.Route {
	if c, ok := copies[r]; ok {
		return c
	}
	out := r
	clone := func() {
		if out == r {
			c := *r
			out = &c
		}
	}
	backendsCopied := false
	for i, wc := range r.Backends {
		if wc.Cluster == nil || wc.Cluster.TLS == nil {
			continue
		}
		clone()
		if !backendsCopied {
			out.Backends, backendsCopied = slices.Clone(r.Backends), true
		}
		out.Backends[i].Cluster = b.clusterWithCertificate(wc.Cluster, cert)
	}
	if f := r.Filters; f != nil {
		for i, m := range f.Mirrors {
			if m.Cluster == nil || m.Cluster.TLS == nil {
				continue
			}
			clone()
			if out.Filters == r.Filters {
				fc := *f
				fc.Mirrors = append([]graph.Mirror(nil), f.Mirrors...)
				out.Filters = &fc
			}
			out.Filters.Mirrors[i].Cluster = b.clusterWithCertificate(m.Cluster, cert)
		}
	}
	copies[r] = out
	return out
}

// clusterWithCertificate is c presenting cert, one per cluster and
// certificate.
func (b *Builder) clusterWithCertificate(c *graph.Cluster, cert *graph.Secret) *graph.Cluster {
	key := certCluster{c, cert}
	if v, ok := b.certClusters[key]; ok {
		return v
	}
	if b.certClusters == nil {
		b.certClusters = map[certCluster]*graph.Cluster{}
	}
	v := *c
	tls := *c.TLS
	tls.ClientCertificate = cert
	v.TLS = &tls
	b.certClusters[key] = &v
	return &v
}

type certCluster struct {
	cluster *graph.Cluster
	cert    *graph.Secret
}
