package refs

import (
	"slices"
	"sync"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/foreignpolicy"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/internal/parallel"
)

// Index finds input objects by name. When two objects share a namespace and
// name, which only hostile input does, the older one is kept (then the first
// by namespace/name and kind, as compareAge orders), so the result does not
// depend on input order.
type Index struct {
	services        map[types.NamespacedName]*Service
	secrets         map[types.NamespacedName]*corev1.Secret
	namespaces      map[string]*corev1.Namespace
	referenceGrants map[string][]*grant // by namespace
	// namespacesRead holds the Namespaces whose labels were read
	// (Namespace), for Unused; Namespaces are read one goroutine at a time.
	namespacesRead map[string]bool
	// orphans are the EndpointSlices whose Service is not indexed.
	orphans []types.NamespacedName
	// secret holds the Secrets read as certificates (TLSSecret), so that
	// each is read and checked once.
	secret map[types.NamespacedName]*graph.Secret
	// secretsReferred holds the Secrets an object named (TLSSecret,
	// ReferToSecret), for Unused; Secrets are named one goroutine at a
	// time.
	secretsReferred map[types.NamespacedName]bool
	// Shared, while routes compile in parallel, guards the clusters of
	// indexed Services (see ClusterOf).
	Shared *sync.Mutex
	// configMaps are the ConfigMaps (IndexConfigMaps), and
	// configMapsReferred those an object named (ConfigMap), for Unused.
	configMaps         map[types.NamespacedName]*corev1.ConfigMap
	configMapsReferred map[types.NamespacedName]bool
	// tls is what BackendTLSPolicies give Service ports.
	tls backendTLS
	// Foreign finds the policies of kinds Sesame does not read that
	// protect what they target, which then fails closed (package
	// foreign); nil when there are none.
	Foreign *foreignpolicy.Index
}

// NewIndex indexes everything but Services and their
// EndpointSlices, the most numerous objects, which IndexServices adds:
// Build lets that run beside the Gateways, which do not use them.
//
// Each kind takes one pass, without sorting: of objects sharing a name,
// which only hostile input has, the older is kept; everything else that
// reads these lists is independent of their order.
func NewIndex(secrets []*corev1.Secret, namespaces []*corev1.Namespace, grants []*gatewayv1.ReferenceGrant) *Index {
	idx := &Index{
		secrets:         map[types.NamespacedName]*corev1.Secret{},
		namespaces:      map[string]*corev1.Namespace{},
		referenceGrants: map[string][]*grant{},
		namespacesRead:  map[string]bool{},
		secret:          map[types.NamespacedName]*graph.Secret{},
		secretsReferred: map[types.NamespacedName]bool{},
	}
	for _, secret := range secrets {
		order.KeepOlder(idx.secrets, types.NamespacedName{Namespace: secret.Namespace, Name: secret.Name}, secret)
	}
	for _, ns := range namespaces {
		order.KeepOlder(idx.namespaces, ns.Name, ns)
	}
	for _, g := range grants {
		idx.referenceGrants[g.Namespace] = append(idx.referenceGrants[g.Namespace], &grant{ReferenceGrant: g})
	}
	return idx
}

// IndexServices indexes the Services, each with its EndpointSlices. The
// entries are allocated together, and the one slice most Services have
// lives in the entry. Which Service each slice belongs to is looked up on
// every processor, once the Services are indexed; the slices are then
// added in their order.
func (idx *Index) IndexServices(services []*corev1.Service, slices []*discoveryv1.EndpointSlice) {
	idx.services = make(map[types.NamespacedName]*Service, len(services))
	entries := make([]Service, len(services))
	for i, svc := range services {
		if svc != nil {
			e := &entries[i]
			e.Service, e.slices = svc, e.firstSlice[:0:1]
			order.KeepOlder(idx.services, types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}, e)
		}
	}
	owners := make([]*Service, len(slices))
	parallel.For(len(slices), func(i int) {
		slice := slices[i]
		if service := slice.Labels[discoveryv1.LabelServiceName]; service != "" {
			owners[i] = idx.services[types.NamespacedName{Namespace: slice.Namespace, Name: service}]
		}
	})
	for i, svc := range owners {
		if svc != nil {
			svc.slices = append(svc.slices, slices[i])
		} else {
			idx.orphans = append(idx.orphans, types.NamespacedName{Namespace: slices[i].Namespace, Name: slices[i].Name})
		}
	}
}

// Service is a Service with what translation finds by it: its
// EndpointSlices (those whose kubernetes.io/service-name label names it),
// and the Clusters routes made of its ports (see ClusterOf). Keeping them
// together makes resolving a backendRef one map lookup.
type Service struct {
	*corev1.Service
	// used is set once an object refers to the Service (Index.Service):
	// Unused lists the others.
	used       atomic.Bool
	slices     []*discoveryv1.EndpointSlice
	clusters   []*graph.Cluster
	firstSlice [1]*discoveryv1.EndpointSlice // backs slices until a second
	// firstCluster is the first cluster, and clusterSlot backs clusters
	// until a second, so that a Service with one cluster costs no more
	// allocations than its entry.
	firstCluster graph.Cluster
	clusterSlot  [1]*graph.Cluster
}

// Reference is one object referring to another across namespaces.
type Reference struct {
	FromGroup, FromKind, FromNamespace string
	ToGroup, ToKind, ToNamespace       string
	ToName                             string
}

// Permitted reports whether a ReferenceGrant in the target namespace allows
// ref. References within one namespace need no grant.
func (idx *Index) Permitted(ref Reference) bool {
	if ref.FromNamespace == ref.ToNamespace {
		return true
	}
	for _, g := range idx.referenceGrants[ref.ToNamespace] {
		if grantAllows(g.ReferenceGrant, ref) {
			if !g.used.Load() {
				g.used.Store(true)
			}
			return true
		}
	}
	return false
}

// grant is an indexed ReferenceGrant, and whether it permitted a
// reference (Permitted, which routes compiling in parallel call).
type grant struct {
	*gatewayv1.ReferenceGrant
	used atomic.Bool
}

// Namespace returns the indexed Namespace of that name, or nil, and marks
// it read. One goroutine at a time reads Namespaces.
func (idx *Index) Namespace(name string) *corev1.Namespace {
	ns := idx.namespaces[name]
	if ns != nil {
		idx.namespacesRead[name] = true
	}
	return ns
}

func grantAllows(grant *gatewayv1.ReferenceGrant, ref Reference) bool {
	fromOK := false
	for _, from := range grant.Spec.From {
		if string(from.Group) == ref.FromGroup && string(from.Kind) == ref.FromKind && string(from.Namespace) == ref.FromNamespace {
			fromOK = true
			break
		}
	}
	if !fromOK {
		return false
	}
	for _, to := range grant.Spec.To {
		if string(to.Group) == ref.ToGroup && string(to.Kind) == ref.ToKind && (to.Name == nil || string(*to.Name) == ref.ToName) {
			return true
		}
	}
	return false
}

// Service returns the indexed Service of that name, or nil, and marks it
// used: an object refers to it.
func (idx *Index) Service(name types.NamespacedName) *Service {
	svc := idx.services[name]
	if svc != nil && !svc.used.Load() {
		svc.used.Store(true)
	}
	return svc
}

// Unused is what no object referred to, each list sorted by namespace and
// name: an object of the input that shapes nothing gets a warning that
// says so.
type Unused struct {
	// Services no route named (Service); Secrets no listener or host
	// named (TLSSecret); EndpointSlices whose Service is not indexed.
	Services, Secrets, EndpointSlices []types.NamespacedName
	// Namespaces whose labels nothing read (Namespace).
	Namespaces []string
	// ReferenceGrants that permitted nothing asked for (Permitted).
	ReferenceGrants []types.NamespacedName
	// ConfigMaps no object named (ConfigMap).
	ConfigMaps []types.NamespacedName
}

// Unused lists what no object referred to.
func (idx *Index) Unused() Unused {
	var u Unused
	for name, svc := range idx.services {
		if !svc.used.Load() {
			u.Services = append(u.Services, name)
		}
	}
	for name := range idx.secrets {
		if !idx.secretsReferred[name] {
			u.Secrets = append(u.Secrets, name)
		}
	}
	for name := range idx.configMaps {
		if !idx.configMapsReferred[name] {
			u.ConfigMaps = append(u.ConfigMaps, name)
		}
	}
	u.EndpointSlices = slices.Clone(idx.orphans)
	for name := range idx.namespaces {
		if !idx.namespacesRead[name] {
			u.Namespaces = append(u.Namespaces, name)
		}
	}
	slices.Sort(u.Namespaces)
	for _, grants := range idx.referenceGrants {
		for _, g := range grants {
			if !g.used.Load() {
				u.ReferenceGrants = append(u.ReferenceGrants, types.NamespacedName{Namespace: g.Namespace, Name: g.Name})
			}
		}
	}
	for _, list := range [][]types.NamespacedName{u.Services, u.Secrets, u.EndpointSlices, u.ReferenceGrants, u.ConfigMaps} {
		slices.SortFunc(list, func(a, b types.NamespacedName) int {
			return order.CompareNames(a.Namespace, a.Name, b.Namespace, b.Name)
		})
	}
	return u
}

// ReferToService records that an object names the Service, though the
// reference cannot be used (another namespace without a ReferenceGrant, a
// backend whose filter is unknown): its status says why, so Unused does
// not call the Service unreferred to.
func (idx *Index) ReferToService(name types.NamespacedName) { idx.Service(name) }

// ReferToSecret records that an object names the Secret: TLSSecret does
// for every Secret it reads, and a reference that cannot be used (another
// namespace) does too, as its status says why, so that Unused does not
// call the Secret unreferred to. One goroutine at a time refers to Secrets.
func (idx *Index) ReferToSecret(name types.NamespacedName) { idx.secretsReferred[name] = true }
