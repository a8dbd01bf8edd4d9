package dag

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	contourv1alpha1 "github.com/projectsesame/sesame/apis/projectcontour/v1alpha1"
	sesamev1alpha1 "github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/dag/internal/foreignpolicy"
)

// Input is every object a translation reads, grouped by kind. The order of
// objects within a slice does not matter: Build sorts what it needs to.
// Build only reads the objects; it never changes them.
type Input struct {
	GatewayClasses []*gatewayv1.GatewayClass
	Gateways       []*gatewayv1.Gateway
	HTTPRoutes     []*gatewayv1.HTTPRoute
	GRPCRoutes     []*gatewayv1.GRPCRoute
	TLSRoutes      []*gatewayv1.TLSRoute
	// ListenerSets add listeners to the Gateways that allow them.
	ListenerSets    []*gatewayv1.ListenerSet
	ReferenceGrants []*gatewayv1.ReferenceGrant
	// BackendTLSPolicies say how Envoy connects to Services over TLS, with
	// the ConfigMaps (and Secrets) they take CA certificates from.
	BackendTLSPolicies []*gatewayv1.BackendTLSPolicy
	ConfigMaps         []*corev1.ConfigMap
	Services           []*corev1.Service
	EndpointSlices     []*discoveryv1.EndpointSlice
	Secrets            []*corev1.Secret
	Namespaces         []*corev1.Namespace
	HTTPProxies        []*contourv1.HTTPProxy
	// ExtensionServices are the external servers HTTPProxies call.
	ExtensionServices []*contourv1alpha1.ExtensionService
	Ingresses         []*networkingv1.Ingress
	// SesameConfigurations are Sesame's own configuration (Options.Config)
	// and those GatewayClasses' and Gateways' parametersRefs name.
	SesameConfigurations []*sesamev1alpha1.SesameConfiguration
	// Policies are objects of kinds Sesame does not read that attach to
	// others as policies do (targetRef, targetRefs or targetSelectors in
	// their spec): what one that protects traffic targets fails closed,
	// and each is named in a warning (package dag/internal/foreignpolicy).
	Policies []*unstructured.Unstructured
}

// Add appends obj to the slice for its kind. It returns an error for a nil
// object or a type Build does not read.
func (in *Input) Add(obj runtime.Object) error {
	switch o := obj.(type) {
	case *gatewayv1.GatewayClass:
		in.GatewayClasses = appendNonNil(in.GatewayClasses, o)
	case *gatewayv1.Gateway:
		in.Gateways = appendNonNil(in.Gateways, o)
	case *gatewayv1.HTTPRoute:
		in.HTTPRoutes = appendNonNil(in.HTTPRoutes, o)
	case *gatewayv1.GRPCRoute:
		in.GRPCRoutes = appendNonNil(in.GRPCRoutes, o)
	case *gatewayv1.TLSRoute:
		in.TLSRoutes = appendNonNil(in.TLSRoutes, o)
	case *gatewayv1.ListenerSet:
		in.ListenerSets = appendNonNil(in.ListenerSets, o)
	case *gatewayv1.ReferenceGrant:
		in.ReferenceGrants = appendNonNil(in.ReferenceGrants, o)
	case *gatewayv1.BackendTLSPolicy:
		in.BackendTLSPolicies = appendNonNil(in.BackendTLSPolicies, o)
	case *corev1.ConfigMap:
		in.ConfigMaps = appendNonNil(in.ConfigMaps, o)
	case *corev1.Service:
		in.Services = appendNonNil(in.Services, o)
	case *discoveryv1.EndpointSlice:
		in.EndpointSlices = appendNonNil(in.EndpointSlices, o)
	case *corev1.Secret:
		in.Secrets = appendNonNil(in.Secrets, o)
	case *corev1.Namespace:
		in.Namespaces = appendNonNil(in.Namespaces, o)
	case *contourv1.HTTPProxy:
		in.HTTPProxies = appendNonNil(in.HTTPProxies, o)
	case *contourv1alpha1.ExtensionService:
		in.ExtensionServices = appendNonNil(in.ExtensionServices, o)
	case *networkingv1.Ingress:
		in.Ingresses = appendNonNil(in.Ingresses, o)
	case *sesamev1alpha1.SesameConfiguration:
		in.SesameConfigurations = appendNonNil(in.SesameConfigurations, o)
	case *unstructured.Unstructured:
		if o != nil && !foreignpolicy.Attaches(o) {
			return fmt.Errorf("dag: %s %s (%s) is of a kind Sesame does not read, and no policy: it is not translated", o.GetKind(), objectName(o), o.GetAPIVersion())
		}
		in.Policies = appendNonNil(in.Policies, o)
	case nil:
		return fmt.Errorf("dag: nil object")
	default:
		return fmt.Errorf("dag: objects of type %T are not translated", obj)
	}
	return nil
}

// appendNonNil drops typed nil pointers, which would otherwise reach Build as
// objects without metadata.
func appendNonNil[T any](s []*T, o *T) []*T {
	if o == nil {
		return s
	}
	return append(s, o)
}

// objectName is namespace/name, or name for an object of no namespace.
func objectName(o *unstructured.Unstructured) string {
	if o.GetNamespace() == "" {
		return o.GetName()
	}
	return o.GetNamespace() + "/" + o.GetName()
}
