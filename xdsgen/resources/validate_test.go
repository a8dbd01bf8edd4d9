package resources_test

import (
	"strings"
	"testing"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"

	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

func TestValidateCatchesWhatEnvoyRejects(t *testing.T) {
	vh := func(name string, domains ...string) *routev3.VirtualHost {
		return &routev3.VirtualHost{Name: name, Domains: domains}
	}
	fc := func(name string, sni ...string) *listenerv3.FilterChain {
		c := &listenerv3.FilterChain{Name: name, Filters: []*listenerv3.Filter{routeTableFilter("r")}}
		if len(sni) > 0 {
			c.FilterChainMatch = &listenerv3.FilterChainMatch{ServerNames: sni}
		}
		return c
	}
	listener := func(name string, chains ...*listenerv3.FilterChain) *listenerv3.Listener {
		return &listenerv3.Listener{Name: name, Address: xdsmsg.SocketAddress("0.0.0.0", 443), FilterChains: chains}
	}
	tests := []struct {
		name string
		r    *resources.Set
		want string // substring of the error; "" for valid
	}{
		{"valid", &resources.Set{
			Routes:    []*routev3.RouteConfiguration{{Name: "r", VirtualHosts: []*routev3.VirtualHost{vh("a", "a.com"), vh("b", "b.com")}}},
			Listeners: []*listenerv3.Listener{listener("l", fc("a", "a.com"), fc("b", "b.com"), fc("any"))},
		}, ""},
		{"schema", &resources.Set{Routes: []*routev3.RouteConfiguration{{Name: "r", VirtualHosts: []*routev3.VirtualHost{vh("a")}}}}, "Domains"},
		{"duplicate domain", &resources.Set{Routes: []*routev3.RouteConfiguration{{Name: "r", VirtualHosts: []*routev3.VirtualHost{vh("a", "x.com"), vh("b", "x.com")}}}}, `domain "x.com" is in two virtual hosts`},
		{"duplicate virtual host", &resources.Set{Routes: []*routev3.RouteConfiguration{{Name: "r", VirtualHosts: []*routev3.VirtualHost{vh("a", "x.com"), vh("a", "y.com")}}}}, `virtual host name "a" is used twice`},
		{"duplicate route table", &resources.Set{Routes: []*routev3.RouteConfiguration{{Name: "r"}, {Name: "r"}}}, `RouteConfiguration "r": the name is used twice`},
		{"duplicate chain match", &resources.Set{Listeners: []*listenerv3.Listener{listener("l", fc("a", "a.com"), fc("b", "a.com"))}}, `filter chain "b" has the same match`},
		{"chains sharing one server name", &resources.Set{Listeners: []*listenerv3.Listener{listener("l", fc("a", "a.com", "b.com"), fc("b", "b.com", "c.com"))}}, `filter chain "b" has the same match`},
		{"two chains without match", &resources.Set{Listeners: []*listenerv3.Listener{listener("l", fc("a"), fc("b"))}}, "same match"},
		{"duplicate chain name", &resources.Set{Listeners: []*listenerv3.Listener{listener("l", fc("a", "a.com"), fc("a", "b.com"))}}, `filter chain name "a" is used twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.r.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// routeTableFilter is an HTTP connection manager that takes the route table
// name over ADS.
func routeTableFilter(name string) *listenerv3.Filter {
	return xdsmsg.NetworkFilter(xdsmsg.HTTPConnectionManagerFilter, &hcmv3.HttpConnectionManager{
		StatPrefix:     name,
		RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{ConfigSource: xdsmsg.ADSConfigSource(), RouteConfigName: name}},
		HttpFilters:    []*hcmv3.HttpFilter{xdsmsg.Router()},
	})
}
