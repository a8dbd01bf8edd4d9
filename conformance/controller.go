package conformance

import (
	"context"
	"fmt"
	"net/netip"
	"reflect"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/xdsgen"
)

// controller is Sesame as a Gateway controller over the fake store: it
// translates every object of a kind Sesame reads, writes each status
// Sesame computes, and provisions each served Gateway's Envoy fleet
// (fleet.go), whose load balancer gives the Gateway its address.
type controller struct {
	store  client.Client
	scheme *runtime.Scheme
	name   string
	now    time.Time

	// served is the latest translation, for the RoundTripper.
	served atomic.Pointer[translation]
	// addresses are the Gateways' addresses from the load balancer's pool,
	// stable for the run; balanced the address each fleet's load balancer
	// has now.
	addresses map[types.NamespacedName]netip.Addr
	next      netip.Addr
	balanced  map[types.NamespacedName]netip.Addr
	// warnings are the latest translation's, for the test log.
	warnings []string
}

// translation is one translation and the Envoy configuration of each
// served Gateway, found by its address.
type translation struct {
	result    *sesame.Result
	byAddress map[netip.Addr]*xdsgen.Resources
}

func newController(store client.Client, scheme *runtime.Scheme, name string) *controller {
	return &controller{
		store:     store,
		scheme:    scheme,
		name:      name,
		now:       time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		addresses: map[types.NamespacedName]netip.Addr{},
		balanced:  map[types.NamespacedName]netip.Addr{},
		// 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never a real host.
		next: netip.MustParseAddr("192.0.2.10"),
	}
}

// inputs are the list kinds handed to Translate: those Sesame reads, and
// those of the suite's manifests Sesame does not read yet (which Translate
// names in its warnings).
var inputs = []client.ObjectList{
	&gatewayv1.GatewayClassList{}, &gatewayv1.GatewayList{}, &gatewayv1.ListenerSetList{},
	&gatewayv1.HTTPRouteList{}, &gatewayv1.GRPCRouteList{}, &gatewayv1.TLSRouteList{},
	&gatewayv1.ReferenceGrantList{}, &gatewayv1.BackendTLSPolicyList{},
	&corev1.NamespaceList{}, &corev1.ServiceList{}, &discoveryv1.EndpointSliceList{},
	&corev1.SecretList{}, &corev1.ConfigMapList{},
}

// reconcile translates the store, provisions the served Gateways' fleets,
// translating again when that changed the store (the translation reads
// the fleets' Services), and writes the status.
func (c *controller) reconcile(ctx context.Context) error {
	for round := 0; ; round++ {
		objects, err := c.objects(ctx)
		if err != nil {
			return err
		}
		objects = append(objects, fleetConfig)
		res, err := sesame.TranslateContext(ctx, objects, sesame.Options{
			ControllerName: c.name, Config: types.NamespacedName{Namespace: fleetConfig.Namespace, Name: fleetConfig.Name},
			Now: c.now, AllGateways: true,
		})
		if err != nil {
			return fmt.Errorf("translate: %w", err)
		}
		if len(res.Repairs) > 0 {
			return fmt.Errorf("translate took out messages Envoy would refuse (a Sesame bug): %v", res.Repairs)
		}
		changed, err := c.applyFleets(ctx, res, objects)
		if err != nil {
			return fmt.Errorf("provision: %w", err)
		}
		if changed && round < 3 {
			continue
		}
		c.warnings = res.Warnings
		t := &translation{result: res, byAddress: map[netip.Addr]*xdsgen.Resources{}}
		for _, gw := range res.Gateways() {
			if a, ok := c.balanced[gw]; ok {
				t.byAddress[a] = res.ForGateway(gw)
			}
		}
		c.served.Store(t)
		for _, u := range res.Status {
			if err := c.writeStatus(ctx, u.APIVersion, u.Kind, types.NamespacedName{Namespace: u.Namespace, Name: u.Name}, u.Status); err != nil {
				return fmt.Errorf("status of %s %s/%s: %w", u.Kind, u.Namespace, u.Name, err)
			}
		}
		return nil
	}
}

// objects lists the store's objects of the input kinds, each with its
// apiVersion and kind set.
func (c *controller) objects(ctx context.Context) ([]runtime.Object, error) {
	var out []runtime.Object
	for _, list := range inputs {
		if err := c.store.List(ctx, list); err != nil {
			return nil, err
		}
		items, err := itemsOf(list)
		if err != nil {
			return nil, err
		}
		for _, obj := range items {
			gvks, _, err := c.scheme.ObjectKinds(obj)
			if err != nil {
				return nil, err
			}
			obj.GetObjectKind().SetGroupVersionKind(gvks[0])
			out = append(out, obj)
		}
	}
	return out, nil
}

// itemsOf returns pointers to a typed list's items.
func itemsOf(list client.ObjectList) ([]runtime.Object, error) {
	items := reflect.ValueOf(list).Elem().FieldByName("Items")
	if !items.IsValid() || items.Kind() != reflect.Slice {
		return nil, fmt.Errorf("%T has no Items", list)
	}
	out := make([]runtime.Object, 0, items.Len())
	for i := range items.Len() {
		obj, ok := items.Index(i).Addr().Interface().(runtime.Object)
		if !ok {
			return nil, fmt.Errorf("%T items are not objects", list)
		}
		out = append(out, obj)
	}
	return out, nil
}

// address returns the Gateway's address, the same for the whole run.
func (c *controller) address(gw types.NamespacedName) netip.Addr {
	if a, ok := c.addresses[gw]; ok {
		return a
	}
	a := c.next
	c.next = a.Next()
	c.addresses[gw] = a
	return a
}

// writeStatus stores status, a pointer to the object's status type, as the
// status of the named object; it writes nothing when the status is
// already that.
func (c *controller) writeStatus(ctx context.Context, apiVersion, kind string, name types.NamespacedName, status any) error {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return err
	}
	obj, err := c.scheme.New(gv.WithKind(kind))
	if err != nil {
		return err
	}
	o, ok := obj.(client.Object)
	if !ok {
		return fmt.Errorf("%T is not a client.Object", obj)
	}
	if err := c.store.Get(ctx, name, o); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	field := reflect.ValueOf(o).Elem().FieldByName("Status")
	value := reflect.ValueOf(status)
	if !field.IsValid() || value.Kind() != reflect.Pointer || value.IsNil() || value.Elem().Type() != field.Type() {
		return fmt.Errorf("status %T does not fit %T", status, o)
	}
	before := field.Interface()
	field.Set(value.Elem())
	if equality.Semantic.DeepEqual(before, field.Interface()) {
		return nil
	}
	return c.store.Status().Update(ctx, o)
}
