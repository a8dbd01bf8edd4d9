package sesame

import (
	"fmt"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/xdsgen"
)

// repair repairs r.XDS (see the function repair) and writes what it
// tells into r's status, Events and warnings.
func (r *Result) repair() error {
	problems, warnings, err := repair(r.XDS, r.graph)
	r.Repairs = problems
	r.Warnings = append(r.Warnings, warnings...)
	r.Status, r.Events = r.graph.Status, r.graph.Events
	r.repaired = true
	return err
}

// repair takes out of xds what Envoy would refuse (xdsgen.Resources.Repair),
// so that one object's bad message does not stop the configuration of
// every other, and tells the objects the messages came from, in g's status
// and Events, or in warnings when the object has no status (a Service, a
// Secret, the listeners of the ingress ports). It returns the warnings,
// or an error when the resources are still not valid and consistent.
func repair(xds *xdsgen.Resources, g *dag.Graph) ([]xdsgen.Problem, []string, error) {
	var warnings []string
	problems := xds.Repair()
	for _, p := range problems {
		msg := fmt.Sprintf("Internal error: %v. This is a bug in Sesame; please report it with the input.", p)
		kind, namespace, name, ok := problemOwner(p)
		if !ok || !g.ReportInternalError(kind, namespace, name, msg) {
			warnings = append(warnings, msg)
		}
	}
	if err := xds.Validate(); err != nil {
		return problems, warnings, err
	}
	return problems, warnings, xds.Consistent()
}

// problemOwner reads the object a message came from out of its name
// (README, "Envoy resource names say where each resource came from").
func problemOwner(p xdsgen.Problem) (kind, namespace, name string, ok bool) {
	parts := strings.Split(p.Name, "/")
	switch p.Kind {
	case "Route":
		kinds := map[string]string{"httproute": "HTTPRoute", "grpcroute": "GRPCRoute", "httpproxy": "HTTPProxy", "ingress": "Ingress"}
		if k := kinds[parts[0]]; k != "" && len(parts) >= 4 {
			return k, parts[1], parts[2], true
		}
	case "FilterChain":
		if i := slices.Index(parts, "tlsroute"); i > 0 && i+2 < len(parts) {
			return "TLSRoute", parts[i+1], parts[i+2], true
		}
		fallthrough
	case "Listener", "RouteConfiguration":
		if parts[0] == "gateway" && len(parts) >= 3 {
			return "Gateway", parts[1], parts[2], true
		}
	case "VirtualHost":
		if parts[0] != "ingress" && len(parts) >= 4 {
			return "Gateway", parts[0], parts[1], true
		}
	}
	return "", "", "", false
}
