package sesame

import (
	"reflect"

	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	contourv1alpha1 "github.com/projectsesame/sesame/apis/projectcontour/v1alpha1"
	sesamev1alpha1 "github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dag/graph"
)

// A controller that writes the status a Result gives sees each object
// come back from its informers, with a new resourceVersion and that
// status. A translation reads neither: of an object's status it reads
// only the parents other controllers wrote in a route's (which it keeps)
// and whether the route has parents of its own, and a Service's load
// balancer status (a Gateway's addresses). So the Translator takes such
// an object for the one it holds, and the write-back costs a comparison.

// sameInput says obj, coming in for key, is the same input to a
// translation as held: equal but for what no translation reads. A route
// whose status has parents of Sesame's own is told to keep its status
// (with them replaced), so whether it has some matters, unless it has
// some now and the last Result gave it a status anyway.
func (t *Translator) sameInput(key ObjectKey, held, obj runtime.Object, controller string) bool {
	if reflect.DeepEqual(held, obj) {
		return true
	}
	if reflect.TypeOf(held) != reflect.TypeOf(obj) {
		return false
	}
	_, given := t.status[key]
	anyOwn := given && hasOwnParents(obj, controller)
	return reflect.DeepEqual(inputOf(held, controller, anyOwn), inputOf(obj, controller, anyOwn))
}

// hasOwnParents says obj is a route whose status has parents of
// controller's.
func hasOwnParents(obj runtime.Object, controller string) bool {
	if s := routeStatus(obj); s != nil {
		for _, p := range s.Parents {
			if string(p.ControllerName) == controller {
				return true
			}
		}
	}
	return false
}

// routeStatus is the status of a route of any kind, or nil.
func routeStatus(obj runtime.Object) *gatewayv1.RouteStatus {
	switch o := obj.(type) {
	case *gatewayv1.HTTPRoute:
		return &o.Status.RouteStatus
	case *gatewayv1.GRPCRoute:
		return &o.Status.RouteStatus
	case *gatewayv1.TLSRoute:
		return &o.Status.RouteStatus
	}
	return nil
}

// inputOf is a copy of obj without what no translation reads: its
// resourceVersion and managed fields, and the status Sesame writes (of a
// route's, the contents of Sesame's own parents; with anyOwn, whether it
// has any too).
func inputOf(obj runtime.Object, controller string, anyOwn bool) runtime.Object {
	c := obj.DeepCopyObject()
	if m, err := meta.Accessor(c); err == nil {
		m.SetResourceVersion("")
		m.SetManagedFields(nil)
	}
	if s := routeStatus(c); s != nil {
		*s = foreignAndOwn(*s, controller, anyOwn)
	}
	switch o := c.(type) {
	case *gatewayv1.GatewayClass:
		o.Status = gatewayv1.GatewayClassStatus{}
	case *gatewayv1.Gateway:
		o.Status = gatewayv1.GatewayStatus{}
	case *gatewayv1.ListenerSet:
		o.Status = gatewayv1.ListenerSetStatus{}
	case *gatewayv1.BackendTLSPolicy:
		o.Status = gatewayv1.PolicyStatus{}
	case *contourv1.HTTPProxy:
		o.Status = contourv1.HTTPProxyStatus{}
	case *contourv1alpha1.ExtensionService:
		o.Status = contourv1alpha1.ExtensionServiceStatus{}
	case *v1alpha1.UpstreamCluster:
		o.Status = v1alpha1.UpstreamClusterStatus{}
	case *networkingv1.Ingress:
		o.Status = networkingv1.IngressStatus{}
	case *sesamev1alpha1.SesameConfiguration:
		o.Status = sesamev1alpha1.SesameConfigurationStatus{}
	}
	return c
}

// foreignAndOwn keeps the parents other controllers wrote, and of
// Sesame's own only whether there are some (nothing, with anyOwn).
func foreignAndOwn(s gatewayv1.RouteStatus, controller string, anyOwn bool) gatewayv1.RouteStatus {
	var out []gatewayv1.RouteParentStatus
	own := false
	for _, p := range s.Parents {
		if string(p.ControllerName) == controller {
			own = true
			continue
		}
		out = append(out, p)
	}
	if own && !anyOwn {
		out = append(out, gatewayv1.RouteParentStatus{ControllerName: gatewayv1.GatewayController(controller)})
	}
	return gatewayv1.RouteStatus{Parents: out}
}

// unusedVersion says obj is another version of held, a Service, Secret,
// ConfigMap or EndpointSlice that nothing referred to in the last
// translation (graph.Graph.Unused), or a slice of such a Service, naming
// the same Service: the translation would be the same.
func (t *Translator) unusedVersion(key ObjectKey, held, obj runtime.Object) bool {
	if reflect.TypeOf(held) != reflect.TypeOf(obj) {
		return false
	}
	slice, isSlice := obj.(*discoveryv1.EndpointSlice)
	if isSlice && slice.Labels[discoveryv1.LabelServiceName] != held.(*discoveryv1.EndpointSlice).Labels[discoveryv1.LabelServiceName] {
		return false
	}
	if t.unused[key] {
		return true
	}
	// A slice of a Service nothing referred to serves no cluster.
	return isSlice && t.unused[ObjectKey{Kind: "Service", Namespace: slice.Namespace, Name: slice.Labels[discoveryv1.LabelServiceName]}]
}

// indexUnused keeps the keys of what nothing referred to in g.
func (t *Translator) indexUnused(g *graph.Graph) {
	t.unused = map[ObjectKey]bool{}
	for _, kind := range []struct {
		group, kind string
		names       []types.NamespacedName
	}{
		{"", "Service", g.Unused.Services}, {"", "Secret", g.Unused.Secrets}, {"", "ConfigMap", g.Unused.ConfigMaps},
		{"discovery.k8s.io", "EndpointSlice", g.Unused.EndpointSlices},
	} {
		for _, n := range kind.names {
			t.unused[ObjectKey{Group: kind.group, Kind: kind.kind, Namespace: n.Namespace, Name: n.Name}] = true
		}
	}
}
