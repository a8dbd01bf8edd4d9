package render

import (
	"fmt"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/projectsesame/sesame/xdsgen"
)

// configDump is r as Envoy's admin /config_dump shows resources it received
// over ADS: each a dynamic active one with version_info version, in the
// order Envoy dumps them (clusters, endpoints, listeners, routes, secrets).
// secrets replace r.Secrets, so that they can be redacted. last_updated,
// the time Envoy took a resource, is left out: nothing took them.
func configDump(r *xdsgen.Resources, secrets []*tlsv3.Secret, version string) (*adminv3.ConfigDump, error) {
	var d dumper
	clusters := &adminv3.ClustersConfigDump{VersionInfo: version}
	for _, c := range r.Clusters {
		clusters.DynamicActiveClusters = append(clusters.DynamicActiveClusters,
			&adminv3.ClustersConfigDump_DynamicCluster{VersionInfo: version, Cluster: d.any(c)})
	}
	endpoints := &adminv3.EndpointsConfigDump{}
	for _, e := range r.Endpoints {
		endpoints.DynamicEndpointConfigs = append(endpoints.DynamicEndpointConfigs,
			&adminv3.EndpointsConfigDump_DynamicEndpointConfig{VersionInfo: version, EndpointConfig: d.any(e)})
	}
	listeners := &adminv3.ListenersConfigDump{VersionInfo: version}
	for _, l := range r.Listeners {
		listeners.DynamicListeners = append(listeners.DynamicListeners, &adminv3.ListenersConfigDump_DynamicListener{
			Name:        l.GetName(),
			ActiveState: &adminv3.ListenersConfigDump_DynamicListenerState{VersionInfo: version, Listener: d.any(l)},
		})
	}
	routes := &adminv3.RoutesConfigDump{}
	for _, rc := range r.Routes {
		routes.DynamicRouteConfigs = append(routes.DynamicRouteConfigs,
			&adminv3.RoutesConfigDump_DynamicRouteConfig{VersionInfo: version, RouteConfig: d.any(rc)})
	}
	secretDump := &adminv3.SecretsConfigDump{}
	for _, s := range secrets {
		secretDump.DynamicActiveSecrets = append(secretDump.DynamicActiveSecrets,
			&adminv3.SecretsConfigDump_DynamicSecret{Name: s.GetName(), VersionInfo: version, Secret: d.any(s)})
	}
	dump := &adminv3.ConfigDump{}
	for _, m := range []proto.Message{clusters, endpoints, listeners, routes, secretDump} {
		dump.Configs = append(dump.Configs, d.any(m))
	}
	if d.err != nil {
		return nil, fmt.Errorf("render: %w", d.err)
	}
	return dump, nil
}

// dumper packs messages into Any values, keeping the first error.
type dumper struct{ err error }

func (d *dumper) any(m proto.Message) *anypb.Any {
	a := new(anypb.Any)
	err := anypb.MarshalFrom(a, m, proto.MarshalOptions{Deterministic: true})
	if err != nil && d.err == nil {
		d.err = err
	}
	return a
}
