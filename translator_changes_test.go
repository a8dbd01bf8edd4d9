package sesame_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
)

// randomChanges picks one to three changes: a held object deleted, one of
// universe's (not held) added, or a held object modified or renamed.
func randomChanges(rng *rand.Rand, held map[sesame.ObjectKey]runtime.Object, universe []runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
	keys := make([]sesame.ObjectKey, 0, len(held))
	for k := range held {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b sesame.ObjectKey) int { return strings.Compare(a.String(), b.String()) })
	var changed []runtime.Object
	var deleted []sesame.ObjectKey
	touched := map[sesame.ObjectKey]bool{}
	for range 1 + rng.IntN(3) {
		switch op := rng.IntN(10); {
		case op < 2 && len(keys) > 0:
			k := keys[rng.IntN(len(keys))]
			if !touched[k] {
				touched[k] = true
				deleted = append(deleted, k)
			}
		case op < 4:
			obj := universe[rng.IntN(len(universe))]
			k, _ := sesame.KeyOf(obj)
			if _, ok := held[k]; !ok && !touched[k] {
				touched[k] = true
				changed = append(changed, obj)
			}
		case len(keys) > 0:
			k := keys[rng.IntN(len(keys))]
			if touched[k] {
				continue
			}
			touched[k] = true
			obj := held[k].DeepCopyObject()
			if rename := mutate(rng, obj); rename {
				deleted = append(deleted, k)
				renamed, _ := sesame.KeyOf(obj)
				if touched[renamed] {
					continue
				}
				touched[renamed] = true
			}
			changed = append(changed, obj)
		}
	}
	return changed, deleted
}

// mutate changes obj in a way its kind makes matter (a listener's port,
// a route's hostnames or backend, a Service's port, a Secret's key, a
// grant's namespace...), or its generation, or its name (true: the old
// name is gone).
func mutate(rng *rand.Rand, obj runtime.Object) (renamed bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	switch rng.IntN(9) {
	case 0:
		m.SetName(m.GetName() + "-renamed")
		return true
	case 1:
		m.SetGeneration(m.GetGeneration() + 1)
		return false
	case 2:
		writeBack(rng, obj)
		return false
	}
	switch o := obj.(type) {
	case *gatewayv1.GatewayClass:
		o.Spec.ControllerName += "-other"
	case *gatewayv1.Gateway:
		if n := len(o.Spec.Listeners); n > 0 {
			l := &o.Spec.Listeners[rng.IntN(n)]
			switch rng.IntN(3) {
			case 0:
				l.Port++
			case 1:
				h := gatewayv1.Hostname("changed.example.com")
				l.Hostname = &h
			default:
				o.Spec.Listeners = slices.Delete(o.Spec.Listeners, 0, 1)
			}
		}
	case *gatewayv1.HTTPRoute:
		switch rng.IntN(3) {
		case 0:
			o.Spec.Hostnames = append(o.Spec.Hostnames, "changed.example.com")
		case 1:
			if n := len(o.Spec.Rules); n > 0 {
				o.Spec.Rules = o.Spec.Rules[:n-1]
			}
		default:
			for i := range o.Spec.Rules {
				for j := range o.Spec.Rules[i].BackendRefs {
					if p := o.Spec.Rules[i].BackendRefs[j].Port; p != nil {
						*p++
					}
				}
			}
		}
	case *gatewayv1.GRPCRoute:
		if n := len(o.Spec.Rules); n > 0 {
			o.Spec.Rules = o.Spec.Rules[:n-1]
		}
	case *gatewayv1.TLSRoute:
		o.Spec.Hostnames = append(o.Spec.Hostnames, "changed.example.com")
	case *gatewayv1.ReferenceGrant:
		if len(o.Spec.From) > 0 {
			o.Spec.From[0].Namespace = "elsewhere"
		}
	case *unstructured.Unstructured: // a policy of another project's: it targets another route, or a rule of it
		target := map[string]any{"group": gatewayv1.GroupName, "kind": "HTTPRoute", "name": []string{"foo", "bar", "backend"}[rng.IntN(3)]}
		if rng.IntN(2) == 0 {
			target["sectionName"] = "admin"
		}
		_ = unstructured.SetNestedField(o.Object, target, "spec", "targetRef")
	case *corev1.Service:
		if len(o.Spec.Ports) > 0 {
			o.Spec.Ports[0].Port++
		}
	case *corev1.Secret:
		delete(o.Data, corev1.TLSPrivateKeyKey)
	case *discoveryv1.EndpointSlice:
		switch n := len(o.Endpoints); {
		case n > 0 && rng.IntN(4) == 0:
			o.Endpoints = o.Endpoints[:n-1]
		case n > 0 && rng.IntN(3) == 0:
			ready := o.Endpoints[0].Conditions.Ready != nil && !*o.Endpoints[0].Conditions.Ready
			o.Endpoints[0].Conditions.Ready = &ready
		case n > 0 && len(o.Endpoints[0].Addresses) > 0 && rng.IntN(2) == 0:
			o.Endpoints[0].Addresses[0] = fmt.Sprintf("10.99.%d.%d", rng.IntN(250), rng.IntN(250))
		case len(o.Ports) > 0 && o.Ports[0].Port != nil:
			*o.Ports[0].Port++ // not endpoints alone: the Translator translates again
		default:
			o.Endpoints = append(o.Endpoints, discoveryv1.Endpoint{Addresses: []string{"10.98.0.1"}})
		}
	case *contourv1.HTTPProxy:
		if o.Spec.VirtualHost != nil && rng.IntN(2) == 0 {
			o.Spec.VirtualHost.Fqdn = "changed.example.com"
		} else if n := len(o.Spec.Routes); n > 0 {
			o.Spec.Routes = o.Spec.Routes[:n-1]
		}
	case *networkingv1.Ingress:
		if n := len(o.Spec.Rules); n > 0 {
			o.Spec.Rules = o.Spec.Rules[:n-1]
		}
	default:
		m.SetLabels(map[string]string{"changed": "true"})
	}
	return false
}

// writeBack changes obj as a controller's status write makes it come
// back: a new resourceVersion, and a status, of Sesame's own parents for a
// route (and now and then another controller's, which a translation
// keeps).
func writeBack(rng *rand.Rand, obj runtime.Object) {
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion(fmt.Sprint(rng.IntN(1 << 20)))
	cond := []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", Message: fmt.Sprint(rng.IntN(100))}}
	parent := func(controller string) gatewayv1.RouteParentStatus {
		return gatewayv1.RouteParentStatus{ParentRef: gatewayv1.ParentReference{Name: "any"}, ControllerName: gatewayv1.GatewayController(controller), Conditions: cond}
	}
	controller := dag.DefaultControllerName
	if rng.IntN(4) == 0 {
		controller = "example.com/other-controller"
	}
	switch o := obj.(type) {
	case *gatewayv1.HTTPRoute:
		o.Status.Parents = append(o.Status.Parents, parent(controller))
	case *gatewayv1.GRPCRoute:
		o.Status.Parents = append(o.Status.Parents, parent(controller))
	case *gatewayv1.TLSRoute:
		o.Status.Parents = append(o.Status.Parents, parent(controller))
	case *gatewayv1.Gateway:
		o.Status.Conditions = cond
	case *gatewayv1.GatewayClass:
		o.Status.Conditions = cond
	case *contourv1.HTTPProxy:
		o.Status.Conditions = append(o.Status.Conditions, contourv1.DetailedCondition{Condition: cond[0]})
	}
}
