package conformance

import (
	"context"
	"fmt"
	"net/netip"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/provision"
)

// fleetConfig is Sesame's own configuration in the run: every served
// Gateway's fleet is managed, one Envoy behind a LoadBalancer Service, as
// package provision makes it; the cluster's controllers below stand in
// for the kubelet and the cloud's load balancer.
var fleetConfig = &v1alpha1.SesameConfiguration{
	TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.GroupVersion.String(), Kind: v1alpha1.SesameConfigurationKind},
	ObjectMeta: metav1.ObjectMeta{Name: "sesame", Namespace: "projectsesame"},
	Spec: v1alpha1.SesameConfigurationSpec{Envoy: &v1alpha1.EnvoyConfig{
		WorkloadType: v1alpha1.Deployment, Replicas: ptrTo(int32(1)),
	}},
}

// The static addresses of GatewayStaticAddresses: the load balancer takes
// those of loadBalancerRange only. Both are documentation ranges (RFC
// 5737), never real hosts.
var (
	loadBalancerRange = netip.MustParsePrefix("192.0.2.0/24")
	usableAddresses   = []gatewayv1.GatewaySpecAddress{{Type: ptrTo(gatewayv1.IPAddressType), Value: "192.0.2.250"}}
	unusableAddresses = []gatewayv1.GatewaySpecAddress{{Type: ptrTo(gatewayv1.IPAddressType), Value: "198.51.100.250"}}
)

// fleetKinds are the kinds of a fleet's objects, for pruning.
var fleetKinds = []client.ObjectList{&corev1.ServiceAccountList{}, &corev1.ConfigMapList{}, &appsv1.DeploymentList{}, &corev1.ServiceList{}}

// applyFleets provisions the fleets of res's served Gateways, as a
// controller importing package provision does: it applies each managed
// fleet's objects, prunes the fleet objects no managed fleet wants (their
// Gateway is gone or no longer served; a fleet left alone keeps its own),
// and runs the load balancer of their Services. It says whether it
// changed anything, which the translation must then see.
func (c *controller) applyFleets(ctx context.Context, res *sesame.Result, objects []runtime.Object) (bool, error) {
	out := provision.Provision(provision.Input{Gateways: res.Fleets(objects), Config: fleetConfig}, provision.Options{})
	desired := map[string]bool{}
	keep := map[types.NamespacedName]bool{} // fleets left alone
	changed := false
	for _, f := range out.Fleets {
		if !f.Managed {
			keep[f.Gateway] = true
			continue
		}
		for _, obj := range f.Objects {
			o, ok := obj.(client.Object)
			if !ok {
				return false, fmt.Errorf("%T is not a client.Object", obj)
			}
			desired[objectKey(o)] = true
			if svc, ok := o.(*corev1.Service); ok {
				c.loadBalance(f.Gateway, svc)
			}
			ch, err := c.upsert(ctx, o)
			if err != nil {
				return false, fmt.Errorf("applying %s: %w", objectKey(o), err)
			}
			changed = changed || ch
		}
	}
	for _, list := range fleetKinds {
		if err := c.store.List(ctx, list, client.HasLabels{provision.LabelGatewayNamespace}); err != nil {
			return false, err
		}
		items, err := itemsOf(list)
		if err != nil {
			return false, err
		}
		for _, item := range items {
			o := item.(client.Object)
			gw := types.NamespacedName{Namespace: o.GetLabels()[provision.LabelGatewayNamespace], Name: o.GetLabels()[provision.LabelGatewayName]}
			if desired[objectKey(o)] || keep[gw] {
				continue
			}
			if err := c.store.Delete(ctx, o); err != nil && !apierrors.IsNotFound(err) {
				return false, err
			}
			changed = true
		}
	}
	return changed, nil
}

// loadBalance gives svc, a fleet's LoadBalancer Service, the address a
// cloud's load balancer would: its spec.loadBalancerIP when that lies in
// loadBalancerRange (none when it does not: the load balancer refuses it),
// else the Gateway's address from the run's pool.
func (c *controller) loadBalance(gw types.NamespacedName, svc *corev1.Service) {
	if svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return
	}
	addr := c.address(gw)
	if svc.Spec.LoadBalancerIP != "" {
		ip, err := netip.ParseAddr(svc.Spec.LoadBalancerIP)
		if err != nil || !loadBalancerRange.Contains(ip) {
			return
		}
		addr = ip
	}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: addr.String()}}
	c.balanced[gw] = addr
}

// upsert creates obj, or updates the stored object when it differs in
// anything but what the API server keeps (resource version, uid, times).
// A Service's status (its load balancer) is written through the status
// subresource, as the API server wants it.
func (c *controller) upsert(ctx context.Context, obj client.Object) (bool, error) {
	current, err := c.scheme.New(obj.GetObjectKind().GroupVersionKind())
	if err != nil {
		return false, err
	}
	var status *corev1.ServiceStatus
	if svc, ok := obj.(*corev1.Service); ok {
		status = svc.Status.DeepCopy()
	}
	cur := current.(client.Object)
	err = c.store.Get(ctx, client.ObjectKeyFromObject(obj), cur)
	switch {
	case apierrors.IsNotFound(err):
		err = c.store.Create(ctx, obj)
	case err != nil:
		return false, err
	default:
		obj.SetResourceVersion(cur.GetResourceVersion())
		obj.SetUID(cur.GetUID())
		obj.SetCreationTimestamp(cur.GetCreationTimestamp())
		obj.SetGeneration(cur.GetGeneration())
		obj.GetObjectKind().SetGroupVersionKind(cur.GetObjectKind().GroupVersionKind())
		if equality.Semantic.DeepEqual(obj, cur) {
			return false, nil
		}
		err = c.store.Update(ctx, obj)
	}
	if err != nil || status == nil {
		return true, err
	}
	svc := obj.(*corev1.Service)
	if equality.Semantic.DeepEqual(*status, svc.Status) {
		return true, nil
	}
	svc.Status = *status
	return true, c.store.Status().Update(ctx, svc)
}

// objectKey names an object by kind, namespace and name.
func objectKey(o client.Object) string {
	return fmt.Sprintf("%T %s/%s", o, o.GetNamespace(), o.GetName())
}

func ptrTo[T any](v T) *T { return &v }
