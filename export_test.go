package sesame

import (
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/xdsgen"
)

// Repair runs on r what Translate runs when a generated message fails
// Envoy's validation, so that tests can inject such a message, which no
// input is known to cause.
func Repair(r *Result) error { return r.repair() }

// Merges is how many of t's Updates merged a change to routes into the
// last Result (translator_merge.go) rather than translating everything.
func Merges(t *Translator) int { return t.merges }

// ScopeReuses is how many of t's merges took the scope as it was from the
// merge before (translator_scope.go).
func ScopeReuses(t *Translator) int { return t.reuses }

// KindConflicts is r's graph's count of routes refused for a route of
// the other kind (graph.Graph.KindConflicts).
func KindConflicts(r *Result) int { return r.graph.KindConflicts }

// GenerateForGateway is what ForGateway would give were gateway not the
// only Gateway of r's graph: its part generated.
func GenerateForGateway(r *Result, gateway types.NamespacedName) *xdsgen.Resources {
	return r.generateForGateway(gateway)
}

// GraphNames are xdsgen.NamesOf of r's graph, and what xdsgen.Generate
// makes of it.
func GraphNames(r *Result) (xdsgen.Names, *xdsgen.Resources) {
	return xdsgen.NamesOf(r.graph), xdsgen.Generate(r.graph)
}
