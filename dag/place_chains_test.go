package dag

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/gatewayapi"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/internal/report"
)

func TestChainFor(t *testing.T) {
	chain := func(names ...string) *layer.Chain {
		return &layer.Chain{FilterChain: &graph.FilterChain{Listener: strings.Join(names, ","), ServerNames: names}}
	}
	idx := indexChains([]*layer.Chain{chain("a.example.com"), chain("*.example.com"), chain("*.b.example.com", "other.org"), chain()})
	tests := []struct{ sni, want string }{
		{"a.example.com", "a.example.com"},
		{"x.example.com", "*.example.com"},
		{"x.b.example.com", "*.b.example.com,other.org"},
		{"x.y.b.example.com", "*.b.example.com,other.org"}, // Envoy's wildcards take any number of labels
		{"other.org", "*.b.example.com,other.org"},
		{"example.com", ""},
		{"*.c.example.com", "*.example.com"},
	}
	for _, tt := range tests {
		if got := idx.chainFor(tt.sni); got == nil || got.FilterChain.Listener != tt.want {
			t.Errorf("chainFor(%q) = %+v, want %q", tt.sni, got, tt.want)
		}
	}
	if c := indexChains(nil).chainFor("a.example.com"); c != nil {
		t.Errorf("no chains: %+v", c)
	}
}

// TestMergeChains checks the rules of place_chains.go one by one: which
// chain serves each server name, with whose certificate, and who is told.
func TestMergeChains(t *testing.T) {
	cert := func(name string) []*graph.Secret {
		return []*graph.Secret{{Name: types.NamespacedName{Namespace: "ns", Name: name}}}
	}
	routed := func(l layer.Layer, name, certName string, paths ...string) *layer.Chain {
		return &layer.Chain{Layer: l, FilterChain: &graph.FilterChain{Listener: name, Protocol: "HTTPS", ServerNames: sni(name), Certificates: cert(certName)},
			Hosts: []*layer.Host{lh(l, name, paths...)}, Owners: []report.ObjectKey{{Kind: l.String(), Namespace: "ns", Name: certName}}}
	}
	tcp := func(l layer.Layer, name string) *layer.Chain {
		return &layer.Chain{Layer: l, FilterChain: &graph.FilterChain{Listener: name, Protocol: "TLS", ServerNames: sni(name), TCP: &graph.TCPRoute{}},
			Owners: []report.ObjectKey{{Kind: l.String(), Namespace: "ns", Name: "tcp"}}}
	}
	gateway := func(name, certName string, paths ...string) *graph.FilterChain {
		vh := &graph.VirtualHost{Listener: "gw-" + name, Hostname: name}
		for _, r := range lh(layer.Gateway, name, paths...).Routes {
			vh.Routes = append(vh.Routes, r.Route)
		}
		return &graph.FilterChain{Listener: "gw-" + name, Protocol: "HTTPS", ServerNames: sni(name), Certificates: cert(certName), VirtualHosts: []*graph.VirtualHost{vh}}
	}
	gatewayTLS := &graph.FilterChain{Listener: "gw-tls", Protocol: "TLS", ServerNames: []string{"*.tls.com"}, TCP: &graph.TCPRoute{}}
	tests := []struct {
		name    string
		gateway []*graph.FilterChain
		chains  []*layer.Chain
		want    []string // "listener cert routes" per chain, sorted by server name
		told    []string // "reason name"
	}{
		{"rule 1: the Gateway's chain keeps its name and certificate; routes join",
			[]*graph.FilterChain{gateway("a.com", "gw", "/g")}, []*layer.Chain{routed(layer.HTTPProxy, "a.com", "proxy", "/p")},
			[]string{"gw-a.com gw G:/g H:/p"}, []string{"CertificateOverridden proxy"}},
		{"rule 1: a TCP proxy cannot join the Gateway's routes",
			[]*graph.FilterChain{gateway("a.com", "gw", "/g")}, []*layer.Chain{tcp(layer.HTTPProxy, "a.com")},
			[]string{"gw-a.com gw G:/g"}, []string{"ServerNameTaken tcp"}},
		{"rule 2: the HTTPProxy's certificate over the Ingress's; routes join",
			nil, []*layer.Chain{routed(layer.HTTPProxy, "a.com", "proxy", "/p"), routed(layer.Ingress, "a.com", "ingress", "/i")},
			[]string{"a.com proxy H:/p I:/i"}, []string{"CertificateOverridden ingress"}},
		{"rule 3: a Gateway TLS listener keeps the names below its wildcard",
			[]*graph.FilterChain{gatewayTLS}, []*layer.Chain{routed(layer.Ingress, "x.tls.com", "ingress", "/i")},
			[]string{"gw-tls "}, []string{"ServerNameTaken ingress"}},
		{"rule 3: a TCP proxy cannot take a name whose requests the Gateway routes",
			[]*graph.FilterChain{gateway("", "gw", "/g")}, []*layer.Chain{tcp(layer.HTTPProxy, "a.com")},
			[]string{"gw- gw G:/g"}, []string{"ServerNameTaken tcp"}},
		{"rule 4: a chain of its own, carrying the Gateway's routes for it; rule 6: 421 in the Gateway's",
			[]*graph.FilterChain{gateway("", "gw", "/g")}, []*layer.Chain{routed(layer.HTTPProxy, "a.com", "proxy", "/p")},
			[]string{"ingress/a.com proxy H:/p G:/g", "gw- gw G:/g 421:a.com"}, nil},
		{"rule 5: a wider HTTPProxy wildcard's routes join a Gateway hostname below it",
			[]*graph.FilterChain{gateway("a.com", "gw", "/g")}, []*layer.Chain{routed(layer.HTTPProxy, "*.com", "proxy", "/p")},
			[]string{"gw-a.com gw G:/g H:/p", "ingress/*.com proxy H:/p"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var chains [layer.Count][]*layer.Chain
			for _, c := range tt.chains {
				chains[c.Layer] = append(chains[c.Layer], c)
			}
			p := &placer{gatewayHosts: gatewayapi.Layering{}.Hosts}
			out := p.mergeChains(tt.gateway, chains, len(tt.gateway) > 0)
			var got []string
			for _, fc := range out {
				s := fc.Listener + " "
				if len(fc.Certificates) > 0 {
					s += fc.Certificates[0].Name.Name
				}
				for _, vh := range fc.VirtualHosts {
					if vh.Misdirected {
						s += " 421:" + vh.Hostname
					} else if r := describeRoutes(vh); r != "" {
						s += " " + r
					}
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("chains %q, want %q", got, tt.want)
			}
			var told []string
			for _, n := range p.notices {
				told = append(told, n.Reason+" "+n.To.Name)
			}
			if !slices.Equal(told, tt.told) {
				t.Errorf("told %q, want %q", told, tt.told)
			}
		})
	}
}

// sni is the server names of a chain for hostname: none for "".
func sni(hostname string) []string {
	if hostname == "" {
		return nil
	}
	return []string{hostname}
}
