package gatewayapi

import (
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
)

// hostRun is a run of routes of a Gateway virtual host attached under one
// hostname: Routes[runs[k-1].end:runs[k].end] under runs[k].hostname.
// Layering (package dag, layers.go) reads them to tell a route of the virtual host's
// hostname from one that falls through from a wider hostname.
type hostRun struct {
	hostname string
	end      int
}

// grpcNames are the lengths of the service and the method a GRPCRoute
// route's match names (rules.Route.GRPCService, GRPCMethod).
type grpcNames struct{ service, method uint16 }

// attachRuns records, listener by listener, under which hostname the routes
// of each Gateway virtual host were attached: those of vhosts[k][i] under
// runs[k][i]. Layering looks them up (of), indexing them on first use: most
// graphs have no HTTPProxy or Ingress host to layer, and then no index.
type attachRuns struct {
	vhosts [][]*graph.VirtualHost
	runs   [][][]hostRun
	index  map[*graph.VirtualHost][]hostRun
}

func (a *attachRuns) add(vhosts []*graph.VirtualHost, runs [][]hostRun) {
	a.vhosts, a.runs = append(a.vhosts, vhosts), append(a.runs, runs)
}

// of returns the runs of vh; none for a virtual host not recorded, whose
// routes are all under its own hostname.
func (a *attachRuns) of(vh *graph.VirtualHost) []hostRun {
	if a == nil {
		return nil
	}
	if a.index == nil {
		a.index = map[*graph.VirtualHost][]hostRun{}
		for k, vhosts := range a.vhosts {
			for i, vh := range vhosts {
				a.index[vh] = a.runs[k][i]
			}
		}
	}
	return a.index[vh]
}

// Layering is what the Gateway API builder kept of its virtual
// hosts for layering, which the graph does not carry: under which hostname
// their routes were attached (virtualHosts), and the lengths of the names
// GRPCRoute routes rank by.
type Layering struct {
	attached  *attachRuns
	grpcNames map[*graph.Route]grpcNames
}

// Hosts reads a Gateway port's virtual hosts (or an HTTPS chain's) into
// layered form.
func (g Layering) Hosts(vhosts []*graph.VirtualHost) []*layer.Host {
	out := make([]*layer.Host, 0, len(vhosts))
	for _, vh := range vhosts {
		lh := &layer.Host{Layer: layer.Gateway, Hostname: vh.Hostname, Listener: vh.Listener, Misdirected: vh.Misdirected, VirtualHost: vh}
		runs, run := g.attached.of(vh), 0
		for i, r := range vh.Routes {
			attach := vh.Hostname
			for run < len(runs) && i >= runs[run].end {
				run++
			}
			if run < len(runs) {
				attach = runs[run].hostname
			}
			prec := layer.RoutePrecedence(r, attach)
			if r.Source.Kind == "GRPCRoute" {
				names := g.grpcNames[r]
				prec = layer.GRPCPrecedence(r, int(names.service), int(names.method))
			}
			lh.Routes = append(lh.Routes, layer.NewRoute(r, attach, prec))
		}
		out = append(out, lh)
	}
	return out
}
