package extension

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/apis/projectcontour/v1alpha1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/report"
)

// Options are what translating ExtensionServices reads of the Options.
type Options struct {
	// Now is the time conditions are written at.
	Now metav1.Time
}

// Result is the translation of the ExtensionServices of one Build.
type Result struct {
	opts    Options
	entries map[types.NamespacedName]*entry
	names   []types.NamespacedName // sorted
}

// entry is one ExtensionService: its cluster when it is valid, and its
// status.
type entry struct {
	obj              *v1alpha1.ExtensionService
	cluster          *graph.ExtensionCluster
	errors, warnings []contourv1.SubCondition
}

func (e *entry) addError(typ, reason, format string, args ...any) {
	e.errors = append(e.errors, sub(typ, reason, fmt.Sprintf(format, args...)))
}

func (e *entry) addWarning(typ, reason, format string, args ...any) {
	e.warnings = append(e.warnings, sub(typ, reason, fmt.Sprintf(format, args...)))
}

func sub(typ, reason, message string) contourv1.SubCondition {
	return contourv1.SubCondition{Type: typ, Status: metav1.ConditionTrue, Reason: reason, Message: quote.Cap(message, graph.MaxConditionMessage)}
}

// Build translates the ExtensionServices in.
func Build(in []*v1alpha1.ExtensionService, idx *refs.Index, opts Options) *Result {
	r := &Result{opts: opts, entries: make(map[types.NamespacedName]*entry, len(in))}
	for _, obj := range in {
		if obj == nil {
			continue
		}
		name := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
		if _, dup := r.entries[name]; dup {
			continue // the first stands; Sesame's decoder reports duplicates
		}
		r.entries[name] = &entry{obj: obj}
		r.names = append(r.names, name)
	}
	slices.SortFunc(r.names, func(a, b types.NamespacedName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	for _, name := range r.names {
		e := r.entries[name]
		if c := translate(e, idx); len(e.errors) == 0 {
			e.cluster = c
		}
	}
	return r
}

// translate reads one ExtensionService, recording its problems.
func translate(e *entry, idx *refs.Index) *graph.ExtensionCluster {
	spec := &e.obj.Spec
	c := &graph.ExtensionCluster{Name: types.NamespacedName{Namespace: e.obj.Namespace, Name: e.obj.Name}, Protocol: "h2"}
	if spec.Protocol != nil {
		switch p := *spec.Protocol; p {
		case "h2", "h2c":
			c.Protocol = p
		case "http/1.1":
			c.Protocol = ""
		default:
			e.addError(contourv1.ConditionTypeSpecError, "UnsupportedProtocol", "spec.protocol %q is not h2 (HTTP/2 over TLS), h2c (HTTP/2 without TLS) or http/1.1 (for HTTP authorization servers).", report.Value(p))
		}
	}
	if v := spec.ProtocolVersion; v != "" && v != "v3" {
		e.addError(contourv1.ConditionTypeSpecError, "UnsupportedProtocolVersion", "spec.protocolVersion %q is not v3, the only version of Envoy's extension protocols.", report.Value(v))
	}
	if len(spec.Services) == 0 {
		e.addError(contourv1.ConditionTypeServiceError, "NoServices", "spec.services is empty: the extension has no server.")
	}
	weighted := slices.ContainsFunc(spec.Services, func(t v1alpha1.ExtensionServiceTarget) bool { return t.Weight > 0 })
	for i, t := range spec.Services {
		at := fmt.Sprintf("spec.services[%d]", i)
		backend, problem := service(idx, c.Name.Namespace, t, c.Protocol)
		if problem != "" {
			e.addError(contourv1.ConditionTypeServiceError, "ServiceUnresolvedReference", "%s: %s", at, problem)
			continue
		}
		weight := t.Weight
		if !weighted {
			weight = 1
		}
		c.Backends = append(c.Backends, graph.ExtensionBackend{Service: backend, Weight: weight})
	}
	if weighted && !slices.ContainsFunc(c.Backends, func(b graph.ExtensionBackend) bool { return b.Weight > 0 }) && len(c.Backends) > 0 {
		e.addError(contourv1.ConditionTypeServiceError, "NoWeight", "spec.services: no usable service has a weight above 0.")
	}
	if v := spec.UpstreamValidation; v != nil {
		if c.Protocol != "h2" {
			e.addError(contourv1.ConditionTypeTLSError, "TLSNotUsed", "spec.validation needs TLS to the server: protocol h2.")
		} else if tls, _, name, problem := contour.UpstreamValidation(idx, c.Name.Namespace, v, "h2", ""); problem != "" {
			e.addError(contourv1.ConditionTypeTLSError, "ValidationNotValid", "spec.%s", problem)
		} else {
			tls.Origin = "validation/" + name
			c.TLS = tls
		}
	}
	lb, _, warnings := contour.Balance(spec.LoadBalancerPolicy, "spec.loadBalancerPolicy", "Envoy's calls to an extension are not hashed")
	for _, w := range warnings {
		e.addWarning(contourv1.ConditionTypeSpecError, w.Reason, "%s", w.Message)
	}
	policy := graph.ClusterPolicy{LB: lb}
	if tp := spec.TimeoutPolicy; tp != nil {
		var problem string
		if c.Timeout, problem = contour.Duration(tp.Response, "spec.timeoutPolicy.response"); problem != "" {
			e.addError(contourv1.ConditionTypeSpecError, "TimeoutPolicyNotValid", "%s", problem)
		}
		if policy.IdleTimeout, problem = contour.Duration(tp.IdleConnection, "spec.timeoutPolicy.idleConnection"); problem != "" {
			e.addError(contourv1.ConditionTypeSpecError, "TimeoutPolicyNotValid", "%s", problem)
		}
		if tp.Idle != "" {
			e.addWarning(contourv1.ConditionTypeSpecError, "IgnoredField", "spec.timeoutPolicy.idle is ignored: it bounds idle request streams, which an extension's calls are not; idleConnection bounds idle connections.")
		}
	}
	if policy != (graph.ClusterPolicy{}) {
		c.Policy = &policy
	}
	if cb := spec.CircuitBreakerPolicy; cb != nil {
		c.CircuitBreakers = &graph.CircuitBreakers{
			MaxConnections: cb.MaxConnections, MaxPendingRequests: cb.MaxPendingRequests, MaxRequests: cb.MaxRequests,
			MaxRetries: cb.MaxRetries, PerHostMaxConnections: cb.PerHostMaxConnections,
		}
	}
	return c
}

// service finds the Service port of a target in namespace: an endpoint
// holder for the extension's cluster.
func service(idx *refs.Index, namespace string, t v1alpha1.ExtensionServiceTarget, protocol string) (*graph.Cluster, string) {
	name := types.NamespacedName{Namespace: namespace, Name: t.Name}
	if t.Port < 1 || t.Port > 65535 {
		return nil, fmt.Sprintf("port %d is not in 1-65535.", t.Port)
	}
	svc := idx.Service(name)
	if svc == nil {
		return nil, fmt.Sprintf("Service %s not found.", report.RefName(name))
	}
	if problem := refs.ExternalNameProblem(svc.Service); problem != "" {
		return nil, problem
	}
	port := refs.FindServicePort(svc.Service, int32(t.Port))
	if port == nil {
		return nil, fmt.Sprintf("Service %s has no TCP port %d.", report.RefName(name), t.Port)
	}
	return &graph.Cluster{Service: name, Port: port.Port, PortName: port.Name, Protocol: protocol}, ""
}

// Lookup finds the extension name names, or says why it cannot be used.
func (r *Result) Lookup(name types.NamespacedName) (*graph.ExtensionCluster, string) {
	e := r.entries[name]
	switch {
	case e == nil:
		return nil, fmt.Sprintf("ExtensionService %s not found", name)
	case e.cluster == nil:
		return nil, fmt.Sprintf("ExtensionService %s is not valid (%s)", name, strings.TrimSuffix(e.errors[0].Message, "."))
	}
	return e.cluster, ""
}

// Clusters returns the valid extensions, ordered by namespace and name.
func (r *Result) Clusters() []*graph.ExtensionCluster {
	var out []*graph.ExtensionCluster
	for _, name := range r.names {
		if c := r.entries[name].cluster; c != nil {
			out = append(out, c)
		}
	}
	return out
}

// Status returns the status of every ExtensionService.
func (r *Result) Status() []graph.StatusUpdate {
	out := make([]graph.StatusUpdate, 0, len(r.names))
	for _, name := range r.names {
		e := r.entries[name]
		cond := contourv1.DetailedCondition{
			Condition: metav1.Condition{
				Type: contourv1.ValidConditionType, Status: metav1.ConditionTrue, ObservedGeneration: e.obj.Generation,
				LastTransitionTime: r.opts.Now, Reason: "Valid", Message: "Valid ExtensionService",
			},
			Errors: e.errors, Warnings: e.warnings,
		}
		contour.Summarize(&cond, "Valid ExtensionService")
		out = append(out, graph.StatusUpdate{
			APIVersion: v1alpha1.GroupVersion.String(), Kind: v1alpha1.ExtensionServiceKind,
			Namespace: name.Namespace, Name: name.Name, Generation: e.obj.Generation,
			Status: &v1alpha1.ExtensionServiceStatus{Conditions: []contourv1.DetailedCondition{cond}},
		})
	}
	return out
}
