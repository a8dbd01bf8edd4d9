package conformance

import (
	"context"
	"fmt"
	"net/netip"
	"reflect"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/apis/v1alpha2"
	"sigs.k8s.io/gateway-api/apis/v1beta1"
)

// Cluster is the Kubernetes API the conformance suite talks to:
// controller-runtime's fake client as the store, with what a cluster's
// controllers would do done after every change, in order: generations
// bumped when a spec changes, a ready Pod for each Deployment replica, an
// EndpointSlice for each Service with a selector, and Sesame, as the Gateway
// controller, translating everything and writing status. A change is
// complete, status included, when the call that made it returns, so the
// suite's polling succeeds on its first look or never.
//
// Cluster is safe for concurrent use; changes are applied one at a time.
type Cluster struct {
	client.WithWatch

	mu         sync.Mutex
	scheme     *runtime.Scheme
	crds       *crds
	controller *controller
	podIPs     map[string]netip.Addr // namespace/pod -> IP, stable for the run
	nextPodIP  netip.Addr
}

// NewCluster returns a cluster with the Gateway API CRDs of crdDir (the
// gateway-api module's config/crd/experimental) installed and no other
// object, whose Gateway controller is Sesame acting for controllerName.
func NewCluster(controllerName, crdDir string) (*Cluster, error) {
	scheme, err := newScheme()
	if err != nil {
		return nil, err
	}
	defs, err := loadCRDs(crdDir)
	if err != nil {
		return nil, err
	}
	store := fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(
		&gatewayv1.GatewayClass{}, &gatewayv1.Gateway{}, &gatewayv1.HTTPRoute{},
		&gatewayv1.GRPCRoute{}, &gatewayv1.TLSRoute{}, &gatewayv1.ListenerSet{},
		&gatewayv1.BackendTLSPolicy{}, &corev1.Pod{},
	).Build()
	for _, crd := range defs.defs {
		if err := store.Create(context.Background(), crd); err != nil {
			return nil, err
		}
	}
	c := &Cluster{
		WithWatch: store,
		scheme:    scheme,
		crds:      defs,
		podIPs:    map[string]netip.Addr{},
		nextPodIP: netip.MustParseAddr("10.244.0.10"),
	}
	c.controller = newController(store, scheme, controllerName)
	return c, nil
}

func newScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme,
		gatewayv1.Install, v1beta1.Install, v1alpha2.Install,
	} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Create stores obj at generation 1 and reconciles.
func (c *Cluster) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	obj.SetGeneration(1)
	if err := c.defaults(obj); err != nil {
		return err
	}
	if err := c.WithWatch.Create(ctx, obj, opts...); err != nil {
		return err
	}
	return c.reconcile(ctx)
}

// Update stores obj, bumping its generation when its spec changed, and
// reconciles.
func (c *Cluster) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, err := c.current(ctx, obj)
	if err != nil {
		return err
	}
	if err := c.defaults(obj); err != nil {
		return err
	}
	obj.SetGeneration(old.GetGeneration())
	if changed, err := specChanged(old, obj); err != nil {
		return err
	} else if changed {
		obj.SetGeneration(old.GetGeneration() + 1)
	}
	if err := c.WithWatch.Update(ctx, obj, opts...); err != nil {
		return err
	}
	return c.reconcile(ctx)
}

// Patch applies patch, bumping the generation when the spec changed, and
// reconciles.
func (c *Cluster) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, err := c.current(ctx, obj)
	if err != nil {
		return err
	}
	if err := c.WithWatch.Patch(ctx, obj, patch, opts...); err != nil {
		return err
	}
	if err := c.defaults(obj); err != nil {
		return err
	}
	if changed, err := specChanged(old, obj); err != nil {
		return err
	} else if changed {
		obj.SetGeneration(old.GetGeneration() + 1)
	}
	if err := c.WithWatch.Update(ctx, obj); err != nil {
		return err
	}
	return c.reconcile(ctx)
}

// Delete removes obj and reconciles.
func (c *Cluster) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.WithWatch.Delete(ctx, obj, opts...); err != nil {
		return err
	}
	return c.reconcile(ctx)
}

// defaults fills in obj's CRD defaults, as the API server does on every
// write.
func (c *Cluster) defaults(obj client.Object) error {
	gvk, err := apiutil.GVKForObject(obj, c.scheme)
	if err != nil {
		return err
	}
	return c.crds.apply(gvk, obj)
}

// current reads the stored version of obj.
func (c *Cluster) current(ctx context.Context, obj client.Object) (client.Object, error) {
	old, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return nil, fmt.Errorf("%T is not a client.Object", obj)
	}
	if err := c.WithWatch.Get(ctx, client.ObjectKeyFromObject(obj), old); err != nil {
		return nil, err
	}
	return old, nil
}

// specChanged reports whether a and b differ outside metadata and status,
// which is when the API server bumps metadata.generation.
func specChanged(a, b client.Object) (bool, error) {
	ua, err := runtime.DefaultUnstructuredConverter.ToUnstructured(a)
	if err != nil {
		return false, err
	}
	ub, err := runtime.DefaultUnstructuredConverter.ToUnstructured(b)
	if err != nil {
		return false, err
	}
	for _, m := range []map[string]any{ua, ub} {
		delete(m, "metadata")
		delete(m, "status")
		delete(m, "apiVersion")
		delete(m, "kind")
	}
	return !reflect.DeepEqual(ua, ub), nil
}

// reconcile runs the cluster's controllers once, in the order a change
// flows: workloads, endpoints, then the Gateway controller.
func (c *Cluster) reconcile(ctx context.Context) error {
	if err := c.runDeployments(ctx); err != nil {
		return fmt.Errorf("deployment controller: %w", err)
	}
	if err := c.runEndpoints(ctx); err != nil {
		return fmt.Errorf("endpointslice controller: %w", err)
	}
	return c.controller.reconcile(ctx)
}

// podIP returns the stable address of the named pod.
func (c *Cluster) podIP(namespace, name string) netip.Addr {
	key := namespace + "/" + name
	if ip, ok := c.podIPs[key]; ok {
		return ip
	}
	ip := c.nextPodIP
	c.nextPodIP = ip.Next()
	c.podIPs[key] = ip
	return ip
}

// runDeployments makes each Deployment's ready Pods, named after it, and
// removes the Pods of Deployments that are gone.
func (c *Cluster) runDeployments(ctx context.Context) error {
	var deployments appsv1.DeploymentList
	if err := c.WithWatch.List(ctx, &deployments); err != nil {
		return err
	}
	want := map[string]*corev1.Pod{}
	for i := range deployments.Items {
		d := &deployments.Items[i]
		replicas := int32(1)
		if d.Spec.Replicas != nil {
			replicas = *d.Spec.Replicas
		}
		for r := range replicas {
			name := fmt.Sprintf("%s-sesame-%d", d.Name, r)
			pod := &corev1.Pod{}
			pod.Namespace, pod.Name = d.Namespace, name
			pod.Labels = d.Spec.Template.Labels
			pod.Spec = d.Spec.Template.Spec
			pod.Status = corev1.PodStatus{
				Phase:      corev1.PodRunning,
				PodIP:      c.podIP(d.Namespace, name).String(),
				PodIPs:     []corev1.PodIP{{IP: c.podIP(d.Namespace, name).String()}},
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			}
			want[d.Namespace+"/"+name] = pod
		}
	}
	var pods corev1.PodList
	if err := c.WithWatch.List(ctx, &pods); err != nil {
		return err
	}
	for i := range pods.Items {
		p := &pods.Items[i]
		if _, ok := want[p.Namespace+"/"+p.Name]; ok {
			delete(want, p.Namespace+"/"+p.Name)
			continue
		}
		if err := c.WithWatch.Delete(ctx, p); err != nil {
			return err
		}
	}
	for _, key := range sortedKeys(want) {
		pod := want[key]
		status := pod.Status
		if err := c.WithWatch.Create(ctx, pod); err != nil {
			return err
		}
		pod.Status = status
		if err := c.WithWatch.Status().Update(ctx, pod); err != nil {
			return err
		}
	}
	return nil
}

// managedBy labels the EndpointSlices runEndpoints owns.
const managedBy = "sesame-conformance"

// runEndpoints keeps one EndpointSlice for each Service with a selector,
// listing the ready Pods it selects, as Kubernetes' EndpointSlice
// controller does; Services without a selector keep the EndpointSlices
// their manifests give them.
func (c *Cluster) runEndpoints(ctx context.Context) error {
	var services corev1.ServiceList
	if err := c.WithWatch.List(ctx, &services); err != nil {
		return err
	}
	var pods corev1.PodList
	if err := c.WithWatch.List(ctx, &pods); err != nil {
		return err
	}
	want := map[string]*discoveryv1.EndpointSlice{}
	for i := range services.Items {
		s := &services.Items[i]
		if len(s.Spec.Selector) == 0 {
			continue
		}
		slice := endpointSlice(s, pods.Items)
		want[slice.Namespace+"/"+slice.Name] = slice
	}
	var slices discoveryv1.EndpointSliceList
	if err := c.WithWatch.List(ctx, &slices, client.MatchingLabels{discoveryv1.LabelManagedBy: managedBy}); err != nil {
		return err
	}
	for i := range slices.Items {
		have := &slices.Items[i]
		key := have.Namespace + "/" + have.Name
		w, ok := want[key]
		switch {
		case !ok:
			if err := c.WithWatch.Delete(ctx, have); err != nil {
				return err
			}
		case equality.Semantic.DeepEqual(have.Endpoints, w.Endpoints) && equality.Semantic.DeepEqual(have.Ports, w.Ports):
			delete(want, key)
		default:
			w.ResourceVersion = have.ResourceVersion
			if err := c.WithWatch.Update(ctx, w); err != nil {
				return err
			}
			delete(want, key)
		}
	}
	for _, key := range sortedKeys(want) {
		if err := c.WithWatch.Create(ctx, want[key]); err != nil {
			return err
		}
	}
	return nil
}

// endpointSlice is the EndpointSlice of Service s over pods.
func endpointSlice(s *corev1.Service, pods []corev1.Pod) *discoveryv1.EndpointSlice {
	slice := &discoveryv1.EndpointSlice{AddressType: discoveryv1.AddressTypeIPv4}
	slice.Namespace, slice.Name = s.Namespace, s.Name+"-sesame"
	slice.Labels = map[string]string{discoveryv1.LabelServiceName: s.Name, discoveryv1.LabelManagedBy: managedBy}
	var selected []*corev1.Pod
	for i := range pods {
		p := &pods[i]
		if p.Namespace == s.Namespace && selects(s.Spec.Selector, p.Labels) {
			selected = append(selected, p)
			ready := true
			slice.Endpoints = append(slice.Endpoints, discoveryv1.Endpoint{
				Addresses:  []string{p.Status.PodIP},
				Conditions: discoveryv1.EndpointConditions{Ready: &ready},
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name},
			})
		}
	}
	for _, sp := range s.Spec.Ports {
		port := targetPort(sp, selected)
		name, protocol := sp.Name, sp.Protocol
		if protocol == "" {
			protocol = corev1.ProtocolTCP
		}
		slice.Ports = append(slice.Ports, discoveryv1.EndpointPort{
			Name: &name, Port: &port, Protocol: &protocol, AppProtocol: sp.AppProtocol,
		})
	}
	return slice
}

// targetPort resolves a Service port's targetPort, by number or by the
// name of a container port of the selected pods.
func targetPort(sp corev1.ServicePort, pods []*corev1.Pod) int32 {
	switch {
	case sp.TargetPort.StrVal != "":
		for _, p := range pods {
			for _, ctr := range p.Spec.Containers {
				for _, cp := range ctr.Ports {
					if cp.Name == sp.TargetPort.StrVal {
						return cp.ContainerPort
					}
				}
			}
		}
		return sp.Port
	case sp.TargetPort.IntVal != 0:
		return sp.TargetPort.IntVal
	}
	return sp.Port
}

// selects reports whether every label of selector is in labels.
func selects(selector, labels map[string]string) bool {
	for k, v := range selector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}
