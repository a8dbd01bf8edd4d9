package foreignpolicy

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Target is what a policy attaches to: an object by name, or the objects
// of a kind its selector selects, in the policy's namespace.
type Target struct {
	Group, Kind, Name string
	// SectionName is a rule of a route or a listener of a Gateway or
	// ListenerSet; "" is the whole object.
	SectionName string
	// Selector, when not nil, selects the targets by their labels
	// (targetSelectors); Name is then "".
	Selector labels.Selector
}

// Policy is one object of a kind Sesame does not translate, read for what
// it attaches to.
type Policy struct {
	GVK             schema.GroupVersionKind
	Namespace, Name string
	Targets         []Target
	// Protects is what the policy asks that protects traffic, as a
	// phrase ("authentication and authorization"), or "" when it is of
	// no kind the table knows to.
	Protects string
	// Problems are targets it names that cannot be read: a selector
	// without a kind, which selects nothing, or one that does not parse,
	// taken to select every object of its kind.
	Problems []string
}

// String names the policy as warnings and statuses do:
// "SecurityPolicy default/jwt (gateway.envoyproxy.io/v1alpha1)".
func (p *Policy) String() string {
	return fmt.Sprintf("%s %s/%s (%s)", p.GVK.Kind, p.Namespace, p.Name, p.GVK.GroupVersion())
}

// protective are the kinds that protect traffic, by group and kind, some
// only when a field of their spec is set, with what they ask.
var protective = []struct {
	group, kind string
	field       []string // under spec; none: any object of the kind
	what        string
}{
	{"gateway.envoyproxy.io", "SecurityPolicy", nil, "authentication, authorization or CORS"},
	{"gateway.envoyproxy.io", "EnvoyExtensionPolicy", nil, "request processing extensions (external processing, Wasm, Lua), which may decide what is served"},
	{"gateway.envoyproxy.io", "BackendTrafficPolicy", []string{"rateLimit"}, "rate limits"},
	{"gateway.envoyproxy.io", "ClientTrafficPolicy", []string{"tls", "clientValidation"}, "client certificate validation"},
	{"gateway.nginx.org", "RateLimitPolicy", nil, "rate limits"},
	{"gateway.nginx.org", "WAFPolicy", nil, "a web application firewall"},
	{"kuadrant.io", "AuthPolicy", nil, "authentication and authorization"},
	{"kuadrant.io", "RateLimitPolicy", nil, "rate limits"},
	{"kuadrant.io", "TokenRateLimitPolicy", nil, "rate limits"},
	{"security.istio.io", "AuthorizationPolicy", nil, "authorization"},
	{"security.istio.io", "RequestAuthentication", nil, "authentication"},
}

// Attaches says obj attaches as a policy does: its spec has targetRef,
// targetRefs or targetSelectors.
func Attaches(obj *unstructured.Unstructured) bool {
	if obj == nil {
		return false
	}
	spec, _ := obj.Object["spec"].(map[string]any)
	for _, field := range []string{"targetRef", "targetRefs", "targetSelectors"} {
		if _, ok := spec[field]; ok {
			return true
		}
	}
	return false
}

// Read reads obj as a policy, or returns nil when it does not attach as
// one (Attaches). Fields of the wrong type are left out, as a target of no
// kind and name selects nothing.
func Read(obj *unstructured.Unstructured) *Policy {
	if !Attaches(obj) {
		return nil
	}
	spec := obj.Object["spec"].(map[string]any)
	p := &Policy{GVK: obj.GroupVersionKind(), Namespace: obj.GetNamespace(), Name: obj.GetName()}
	if t, ok := target(spec["targetRef"]); ok {
		p.Targets = append(p.Targets, t)
	}
	list, _ := spec["targetRefs"].([]any)
	for _, r := range list {
		if t, ok := target(r); ok {
			p.Targets = append(p.Targets, t)
		}
	}
	list, _ = spec["targetSelectors"].([]any)
	for i, s := range list {
		t, problem := selectorTarget(s)
		if problem != "" {
			p.Problems = append(p.Problems, fmt.Sprintf("spec.targetSelectors[%d]: %s", i, problem))
		}
		if t.Kind != "" {
			p.Targets = append(p.Targets, t)
		}
	}
	for _, k := range protective {
		if k.group != p.GVK.Group || k.kind != p.GVK.Kind {
			continue
		}
		if len(k.field) > 0 {
			if _, set, _ := unstructured.NestedFieldNoCopy(spec, k.field...); !set {
				continue
			}
		}
		p.Protects = k.what
	}
	return p
}

// target reads one targetRef: a mapping with group, kind and name.
func target(v any) (Target, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return Target{}, false
	}
	t := Target{Group: str(m["group"]), Kind: str(m["kind"]), Name: str(m["name"]), SectionName: str(m["sectionName"])}
	return t, t.Kind != "" && t.Name != ""
}

// selectorTarget reads one of Envoy Gateway's targetSelectors: group,
// kind, and matchLabels or matchExpressions. A selector of a kind that
// cannot be read is taken to select every object of the kind, so that a
// policy protecting traffic fails them closed rather than none.
func selectorTarget(v any) (Target, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return Target{}, "not a mapping"
	}
	t := Target{Group: str(m["group"]), Kind: str(m["kind"])}
	if t.Kind == "" {
		return Target{}, "no kind"
	}
	var sel metav1.LabelSelector
	err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &sel)
	if err == nil {
		t.Selector, err = metav1.LabelSelectorAsSelector(&sel)
	}
	if err != nil {
		t.Selector = labels.Everything()
		return t, fmt.Sprintf("its selector cannot be read (%v), so it is taken to select every %s of its namespace", err, t.Kind)
	}
	return t, ""
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Warning says what Sesame does about p: it names the policy and its
// targets, and whether what it targets fails closed; guarded says a
// protective policy targets something the translation has (Index.Guard
// found it).
func Warning(p *Policy, guarded bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is a policy of a kind Sesame does not read", p)
	if len(p.Targets) > 0 {
		names := make([]string, len(p.Targets))
		for i, t := range p.Targets {
			names[i] = t.String()
		}
		fmt.Fprintf(&b, ", targeting %s", strings.Join(names, ", "))
	}
	switch {
	case p.Protects != "" && guarded:
		fmt.Fprintf(&b, ". It asks for %s, which Sesame cannot apply, so what it targets fails closed rather than be served without it: a route's rules answer with an error, a listener is not programmed (their status says so)", p.Protects)
	case p.Protects != "":
		fmt.Fprintf(&b, ". It asks for %s, which Sesame cannot apply; Sesame serves nothing it targets, so nothing fails closed for it", p.Protects)
	default:
		b.WriteString("; what it targets is served without it")
	}
	for _, problem := range p.Problems {
		b.WriteString("; " + problem)
	}
	b.WriteString(".")
	return b.String()
}

// String names a target: "HTTPRoute foo", "Gateway eg section https",
// `HTTPRoutes selected by "app=web"`, "every HTTPRoute".
func (t Target) String() string {
	switch {
	case t.Selector != nil && t.Selector.Empty():
		return "every " + t.Kind
	case t.Selector != nil:
		return fmt.Sprintf("%ss selected by %q", t.Kind, t.Selector.String())
	case t.SectionName != "":
		return fmt.Sprintf("%s %s section %s", t.Kind, t.Name, t.SectionName)
	}
	return t.Kind + " " + t.Name
}

// ReadAll reads the policies among objs (Read), in a stable order: by
// group, kind, namespace and name.
func ReadAll(objs []*unstructured.Unstructured) []*Policy {
	var out []*Policy
	for _, o := range objs {
		if p := Read(o); p != nil {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *Policy) int {
		return cmp.Or(strings.Compare(a.GVK.Group, b.GVK.Group), strings.Compare(a.GVK.Kind, b.GVK.Kind),
			strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name), strings.Compare(a.GVK.Version, b.GVK.Version))
	})
	return out
}
