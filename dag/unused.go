package dag

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/internal/report"
)

// UnusedWarnings says which Services, Secrets, EndpointSlices, Namespaces,
// ReferenceGrants and ConfigMaps of the input nothing refers to: they
// shape no output and have no status, so a warning is all that tells a
// person they were read. They are the last of Graph.Warnings, one per
// kind (UnusedWarningCount).
func UnusedWarnings(unused graph.Unused) []string {
	var out []string
	for _, u := range unusedKinds(unused) {
		kind := u.one
		if len(u.names) > 1 {
			kind = fmt.Sprintf("%d %s", len(u.names), u.many)
		}
		out = append(out, fmt.Sprintf("%s %s, unused: %s", kind, u.why, report.Names(u.names)))
	}
	return out
}

// UnusedWarningCount is len(UnusedWarnings(unused)), without writing them.
func UnusedWarningCount(unused graph.Unused) int { return len(unusedKinds(unused)) }

// unusedKind is one kind of object nothing refers to, and what its
// warning says.
type unusedKind struct {
	names     []types.NamespacedName
	one, many string
	why       string
}

// unusedKinds are the kinds of which unused has some, in the order of
// their warnings.
func unusedKinds(unused graph.Unused) []unusedKind {
	namespaces := make([]types.NamespacedName, len(unused.Namespaces))
	for i, ns := range unused.Namespaces {
		namespaces[i] = types.NamespacedName{Name: ns}
	}
	return slices.DeleteFunc([]unusedKind{
		{unused.Services, "Service", "Services", "no served route, HTTPProxy or Ingress sends traffic to"},
		{unused.Secrets, "Secret", "Secrets", "no served listener, HTTPProxy or Ingress uses"},
		{unused.EndpointSlices, "EndpointSlice", "EndpointSlices", "whose Service (label kubernetes.io/service-name) is not in the input"},
		{namespaces, "Namespace", "Namespaces", "whose labels no listener's allowedRoutes selector reads (the only use Sesame has for Namespaces)"},
		{unused.ReferenceGrants, "ReferenceGrant", "ReferenceGrants", "permitting no reference a served route or listener makes"},
		{unused.ConfigMaps, "ConfigMap", "ConfigMaps", "no BackendTLSPolicy takes a CA certificate from (the only use Sesame has for ConfigMaps)"},
	}, func(u unusedKind) bool { return len(u.names) == 0 })
}

// EditUnused is names, a list of graph.Unused sorted as Build sorts it,
// with the names d says true of added and those it says false of taken
// out, still sorted, so that a translator that edits the lists of an
// earlier Graph writes the same warnings. names is not changed.
func EditUnused(names []types.NamespacedName, d map[types.NamespacedName]bool) []types.NamespacedName {
	out := slices.Clone(names)
	for n, add := range d {
		i, found := slices.BinarySearchFunc(out, n, compareNames)
		switch {
		case add && !found:
			out = slices.Insert(out, i, n)
		case !add && found:
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

func compareNames(a, b types.NamespacedName) int {
	return order.CompareNames(a.Namespace, a.Name, b.Namespace, b.Name)
}
