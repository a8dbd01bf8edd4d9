package xdsgen

import (
	"github.com/projectsesame/sesame/dag/graph"
)

// Names are the names of the resources Generate makes of a graph, by type,
// in the order it makes them; a load assignment has its cluster's name.
type Names struct {
	Listeners, Routes, Clusters, Secrets []string
}

// NamesOf is what Generate(g) names, without making a message: a caller
// holding the resources of a whole graph picks those of a part of it
// (graph.Graph.ForGateway) by these names, where generating the part
// again would build every one of its messages a second time.
// TestNamesOfIsGenerates (package sesame) holds it to Generate.
func NamesOf(g *graph.Graph) Names {
	var n Names
	reject := false
	for _, l := range g.Listeners {
		name := listenerName(l)
		n.Listeners = append(n.Listeners, name)
		if !l.Secure {
			n.Routes = append(n.Routes, name)
		}
		for _, fc := range l.FilterChains {
			switch {
			case fc.RoutesHTTP():
				n.Routes = append(n.Routes, httpsRouteName(l, fc))
			case rejects(fc):
				reject = true
			}
		}
	}
	n.Clusters = make([]string, 0, len(g.Clusters)+len(g.Extensions)+len(g.DNSClusters)+1)
	n.Clusters = append(n.Clusters, newClusterNames(g.Clusters).all(g.Clusters)...)
	for _, e := range g.Extensions {
		n.Clusters = append(n.Clusters, ExtensionClusterName(e.Name))
	}
	for _, d := range g.DNSClusters {
		n.Clusters = append(n.Clusters, d.Name)
	}
	if reject {
		n.Clusters = append(n.Clusters, RejectClusterName)
	}
	for _, s := range g.Secrets {
		n.Secrets = append(n.Secrets, SecretName(s.Name))
	}
	return n
}

// rejects says a filter chain forwards a share of its connections to the
// reject cluster (RejectClusterName).
func rejects(fc *graph.FilterChain) bool {
	return fc.TCP != nil && fc.TCP.RejectWeight > 0 && len(fc.TCP.Backends) > 0
}
