package manifest

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	extensionv1alpha1 "github.com/projectsesame/sesame/apis/projectcontour/v1alpha1"
	sesamev1alpha1 "github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	proxyv1alpha1 "github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// kinds maps each apiVersion and kind Sesame reads to a constructor of its Go
// type. Gateway API v1beta1 objects (and v1alpha2 GRPCRoutes, v1alpha2 and
// v1alpha3 TLSRoutes) of kinds
// that v1 also serves have the v1 schema, so they decode into the v1 types.
// HTTPProxy is projectcontour.io/v1; design seed 003, written before v1,
// spells its examples projectcontour.io/v1alpha1, which is read as v1 so
// that they translate as written (Contour never served HTTPProxy in
// v1alpha1, so nothing else is meant by it); ExtensionService is
// projectcontour.io/v1alpha1. UpstreamCluster is
// proxy.kubegateway.io/v1alpha1 (seed 002), a cluster-scoped kind.
var kinds = map[schema.GroupVersionKind]func() runtime.Object{
	gatewayv1.SchemeGroupVersion.WithKind("GatewayClass"):    func() runtime.Object { return new(gatewayv1.GatewayClass) },
	gatewayv1.SchemeGroupVersion.WithKind("Gateway"):         func() runtime.Object { return new(gatewayv1.Gateway) },
	gatewayv1.SchemeGroupVersion.WithKind("HTTPRoute"):       func() runtime.Object { return new(gatewayv1.HTTPRoute) },
	gatewayv1.SchemeGroupVersion.WithKind("ReferenceGrant"):  func() runtime.Object { return new(gatewayv1.ReferenceGrant) },
	gatewayv1.SchemeGroupVersion.WithKind("TLSRoute"):        func() runtime.Object { return new(gatewayv1.TLSRoute) },
	gatewayv1.SchemeGroupVersion.WithKind("GRPCRoute"):       func() runtime.Object { return new(gatewayv1.GRPCRoute) },
	v1alpha2.WithKind("GRPCRoute"):                           func() runtime.Object { return new(gatewayv1.GRPCRoute) },
	v1alpha2.WithKind("TLSRoute"):                            func() runtime.Object { return new(gatewayv1.TLSRoute) },
	v1alpha3.WithKind("TLSRoute"):                            func() runtime.Object { return new(gatewayv1.TLSRoute) },
	v1beta1.WithKind("GatewayClass"):                         func() runtime.Object { return new(gatewayv1.GatewayClass) },
	v1beta1.WithKind("Gateway"):                              func() runtime.Object { return new(gatewayv1.Gateway) },
	v1beta1.WithKind("HTTPRoute"):                            func() runtime.Object { return new(gatewayv1.HTTPRoute) },
	v1beta1.WithKind("ReferenceGrant"):                       func() runtime.Object { return new(gatewayv1.ReferenceGrant) },
	contourv1.GroupVersion.WithKind(contourv1.HTTPProxyKind): func() runtime.Object { return new(contourv1.HTTPProxy) },
	contourv1alpha1.WithKind(contourv1.HTTPProxyKind):        func() runtime.Object { return new(contourv1.HTTPProxy) },
	contourv1alpha1.WithKind(extensionv1alpha1.ExtensionServiceKind): func() runtime.Object {
		return new(extensionv1alpha1.ExtensionService)
	},
	sesamev1alpha1.GroupVersion.WithKind(sesamev1alpha1.SesameConfigurationKind): func() runtime.Object {
		return new(sesamev1alpha1.SesameConfiguration)
	},
	gatewayv1.SchemeGroupVersion.WithKind("ListenerSet"):      func() runtime.Object { return new(gatewayv1.ListenerSet) },
	gatewayv1.SchemeGroupVersion.WithKind("BackendTLSPolicy"): func() runtime.Object { return new(gatewayv1.BackendTLSPolicy) },
	v1alpha3.WithKind("BackendTLSPolicy"):                     func() runtime.Object { return new(gatewayv1.BackendTLSPolicy) },
	corev1.SchemeGroupVersion.WithKind("ConfigMap"):           func() runtime.Object { return new(corev1.ConfigMap) },
	corev1.SchemeGroupVersion.WithKind("Service"):             func() runtime.Object { return new(corev1.Service) },
	corev1.SchemeGroupVersion.WithKind("Secret"):              func() runtime.Object { return new(corev1.Secret) },
	corev1.SchemeGroupVersion.WithKind("Namespace"):           func() runtime.Object { return new(corev1.Namespace) },
	discoveryv1.SchemeGroupVersion.WithKind("EndpointSlice"): func() runtime.Object {
		return new(discoveryv1.EndpointSlice)
	},
	networkingv1.SchemeGroupVersion.WithKind("Ingress"): func() runtime.Object { return new(networkingv1.Ingress) },
	proxyv1alpha1.GroupVersion.WithKind(proxyv1alpha1.UpstreamClusterKind): func() runtime.Object {
		return new(proxyv1alpha1.UpstreamCluster)
	},
}

// Older Gateway API versions whose objects have the v1 schema, as far as
// Sesame reads them.
var (
	v1beta1  = schema.GroupVersion{Group: gatewayv1.GroupName, Version: "v1beta1"}
	v1alpha2 = schema.GroupVersion{Group: gatewayv1.GroupName, Version: "v1alpha2"}
	v1alpha3 = schema.GroupVersion{Group: gatewayv1.GroupName, Version: "v1alpha3"}
	// contourv1alpha1 is the seed's spelling of HTTPProxy's apiVersion.
	contourv1alpha1 = schema.GroupVersion{Group: contourv1.GroupName, Version: "v1alpha1"}
)

// canonical is the apiVersion and kind an object is reported under: the
// newest version Sesame decodes it as.
func canonical(gvk schema.GroupVersionKind) schema.GroupVersionKind {
	if gv := gvk.GroupVersion(); gv == v1beta1 || gv == v1alpha2 || gv == v1alpha3 {
		return gatewayv1.SchemeGroupVersion.WithKind(gvk.Kind)
	}
	if gvk.GroupVersion() == contourv1alpha1 && gvk.Kind == contourv1.HTTPProxyKind {
		return contourv1.GroupVersion.WithKind(gvk.Kind)
	}
	return gvk
}

// knownVersions suggests the apiVersions Sesame reads for a kind it knows
// under another version, so that "networking.k8s.io/v1beta1 Ingress" points
// at the version to use.
func knownVersions(gvk schema.GroupVersionKind) string {
	var versions []string
	for known := range kinds {
		if known.Kind == gvk.Kind && known.Group == gvk.Group {
			versions = append(versions, known.GroupVersion().String())
		}
	}
	if len(versions) == 0 {
		return ""
	}
	sort.Strings(versions)
	return fmt.Sprintf(" (it reads %s %s)", strings.Join(versions, " or "), gvk.Kind)
}
