package sesame

import (
	"fmt"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/xdsgen"
)

// repair takes out of r.XDS what Envoy would refuse
// (resources.Set.Repair), so that one object's bad message does not stop
// the configuration of every other, and tells the objects the messages
// came from in r's status and Events (xdsgen.SourceOf; for the resources
// of UpstreamClusters, their Programmed condition), or in r.Warnings when
// the object has no status. It returns an error when the
// resources are still not valid and consistent.
func (r *Result) repair() error {
	r.Repairs = r.XDS.Repair()
	for _, p := range r.Repairs {
		msg := fmt.Sprintf("Internal error: %v. This is a bug in Sesame; please report it with the input.", p)
		if r.reportUpstreamInternalError(p.Kind, p.Name, msg) {
			continue
		}
		kind, namespace, name, ok := xdsgen.SourceOf(p)
		if !ok || !dag.ReportInternalError(r.graph, kind, namespace, name, msg) {
			r.Warnings = append(r.Warnings, msg)
		}
	}
	r.Status, r.Events = r.allStatus(), r.graph.Events
	if err := r.XDS.Validate(); err != nil {
		return err
	}
	return r.XDS.Consistent()
}
