package foreignpolicy

import (
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/labels"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Index finds the policies that protect traffic by what they target.
// A nil Index has none.
type Index struct {
	byName     map[objectKey][]named
	bySelector map[kindKey][]selected
	// used holds the policies Guard found, for Warnings; routes are
	// compiled on several goroutines.
	mu   sync.Mutex
	used map[*Policy]bool
}

type kindKey struct{ group, kind, namespace string }

type objectKey struct {
	kindKey
	name string
}

type named struct {
	policy  *Policy
	section string
}

type selected struct {
	policy   *Policy
	selector labels.Selector
}

// NewIndex indexes the policies that protect traffic (Policy.Protects);
// the others are left out, as nothing fails closed for them.
func NewIndex(policies []*Policy) *Index {
	x := &Index{}
	for _, p := range policies {
		if p.Protects == "" {
			continue
		}
		for _, t := range p.Targets {
			k := kindKey{groupOf(t), t.Kind, p.Namespace}
			if t.Selector != nil {
				if x.bySelector == nil {
					x.bySelector = map[kindKey][]selected{}
				}
				x.bySelector[k] = append(x.bySelector[k], selected{p, t.Selector})
				continue
			}
			if x.byName == nil {
				x.byName = map[objectKey][]named{}
			}
			ok := objectKey{k, t.Name}
			x.byName[ok] = append(x.byName[ok], named{p, t.SectionName})
		}
	}
	return x
}

// Guard says why section of an object (a named rule of a route, a
// listener; "" for a part without a name) must fail closed: the
// protective policies that target the whole object or that section, in
// one sentence, or "" when none does.
func (x *Index) Guard(group, kind, namespace, name string, objectLabels map[string]string, section string) string {
	if x == nil || x.byName == nil && x.bySelector == nil {
		return ""
	}
	k := kindKey{group, kind, namespace}
	var policies []*Policy
	for _, n := range x.byName[objectKey{k, name}] {
		if n.section == "" || n.section == section && section != "" {
			policies = append(policies, n.policy)
		}
	}
	for _, s := range x.bySelector[k] {
		if s.selector.Matches(labels.Set(objectLabels)) {
			policies = append(policies, s.policy)
		}
	}
	if len(policies) == 0 {
		return ""
	}
	found := make([]string, len(policies))
	x.mu.Lock()
	if x.used == nil {
		x.used = map[*Policy]bool{}
	}
	for i, p := range policies {
		x.used[p] = true
		found[i] = p.String() + " asks for " + p.Protects
	}
	x.mu.Unlock()
	slices.Sort(found)
	found = slices.Compact(found) // a policy that targets the object twice
	if len(found) == 1 {
		return found[0] + "; Sesame does not read its kind, so this fails closed rather than be served without it."
	}
	return strings.Join(found, "; ") + "; Sesame does not read their kinds, so this fails closed rather than be served without them."
}

// Warnings are the warnings of policies, one each (Warning), once x has
// guarded what they target.
func (x *Index) Warnings(policies []*Policy) []string {
	out := make([]string, len(policies))
	for i, p := range policies {
		out[i] = Warning(p, x.guarded(p))
	}
	return out
}

// guarded says Guard found p for some object.
func (x *Index) guarded(p *Policy) bool {
	if x == nil {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.used[p]
}

// gatewayAPIKinds are the kinds a policy may target that only the Gateway
// API has.
var gatewayAPIKinds = map[string]bool{"Gateway": true, "ListenerSet": true, "HTTPRoute": true, "GRPCRoute": true, "TLSRoute": true}

// groupOf is the group of t's kind; a target that leaves the group out
// but names a kind only the Gateway API has means the Gateway API's, so
// that a policy written loosely still guards what it means to.
func groupOf(t Target) string {
	if t.Group == "" && gatewayAPIKinds[t.Kind] {
		return gatewayv1.GroupName
	}
	return t.Group
}
