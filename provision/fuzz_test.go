package provision_test

import (
	"net/netip"
	"strconv"
	"testing"

	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	"google.golang.org/protobuf/encoding/protojson"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/validation"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/provision"
)

// FuzzProvision reads a fuzzed SesameConfiguration spec (YAML) and a
// fuzzed Gateway name and address, and provisions: nothing panics, a
// configuration is either valid and managed, with every object named within
// 63 characters as a DNS label and a Service given only an address that
// CheckAddresses lets through, or it is refused with a problem and no
// objects (never an empty desired set for a managed fleet).
func FuzzProvision(f *testing.F) {
	for _, seed := range []string{
		"envoy: {}",
		"envoy: {workloadType: Deployment, replicas: 3, logLevel: debug}",
		"envoy: {networkPublishing: {type: NodePortService, nodePorts: [{port: 80, nodePort: 30080}]}}",
		"envoy: {networkPublishing: {type: LoadBalancerService, scope: Internal, providerParameters: {type: Azure, azure: {subnet: s}}}}",
		"envoy: {networkPublishing: {type: GatewayAPI, gatewayClassName: lb}}",
		"envoy: {resources: {limits: {memory: 1Gi}}, podAnnotations: {a/b: c}}",
		"envoy: {workloadType: StatefulSet}",
		"envoy: {namespace: Not_A_Namespace}",
		"xdsServer: {address: x, port: 99999}",
		"xdsServer: {address: 10.0.0.1, tls: {secretName: envoy-xds}}",
		"xdsServer: {tls: {secretName: Not A Name, serverName: '*'}}",
	} {
		f.Add(seed, "gw", uint16(80), "")
	}
	f.Add("envoy: {}", "gw", uint16(443), "203.0.113.9")
	f.Add("envoy: {networkPublishing: {type: ClusterIPService}}", "gw", uint16(443), "fd00::1")
	f.Add("envoy: {}", "gw", uint16(443), "::ffff:10.0.0.1%eth0")
	f.Fuzz(func(t *testing.T, spec, name string, port uint16, address string) {
		var cfg v1alpha1.SesameConfiguration
		if err := yaml.Unmarshal([]byte(spec), &cfg.Spec); err != nil {
			return
		}
		cfg.Name, cfg.Namespace = "sesame", "projectsesame"
		if len(validation.IsDNS1123Subdomain(name)) > 0 || len(name) > 63 {
			name = "gw"
		}
		gw := &gatewayv1.Gateway{}
		gw.Name, gw.Namespace = name, "default"
		gw.Spec.Listeners = []gatewayv1.Listener{{Name: "l", Port: gatewayv1.PortNumber(max(port, 1)), Protocol: gatewayv1.HTTPProtocolType}}
		// A second listener, and a ListenerSet's, named as fuzzed: Service
		// port names must stay unique and valid.
		gw.Spec.Listeners = append(gw.Spec.Listeners, gatewayv1.Listener{Name: gatewayv1.SectionName(name), Port: gatewayv1.PortNumber(port/2 + 1), Protocol: gatewayv1.HTTPProtocolType})
		if address != "" {
			gw.Spec.Addresses = []gatewayv1.GatewaySpecAddress{{Value: address}}
		}
		g := provision.ResolveGateway(gw, nil, nil)
		g.ListenerSetPorts = []provision.ListenerPort{{Name: "l", Port: int32(port) + 1}, {Name: "port-" + strconv.Itoa(int(port)), Port: int32(port/3 + 2)}}
		res := provision.Provision(provision.Input{Gateways: []provision.Gateway{g}, Config: &cfg}, provision.Options{})
		f := res.Fleets[0]
		switch {
		case f.Problem != "" && (f.Managed || len(f.Objects) > 0):
			t.Fatalf("a refused configuration gives objects: %+v", f)
		case f.Managed && len(f.Objects) < 4:
			t.Fatalf("a managed fleet of %d objects", len(f.Objects))
		}
		for _, obj := range f.Objects {
			if svc, ok := obj.(*corev1.Service); ok {
				names := map[string]bool{}
				for _, p := range svc.Spec.Ports {
					if names[p.Name] || len(validation.IsValidPortName(p.Name)) > 0 {
						t.Fatalf("Service port name %q: repeated or invalid, in %v", p.Name, svc.Spec.Ports)
					}
					names[p.Name] = true
				}
				for _, a := range []string{svc.Spec.LoadBalancerIP, svc.Spec.ClusterIP} {
					if ip, err := netip.ParseAddr(a); a != "" && (err != nil || ip.Zone() != "" || a != address) {
						t.Fatalf("the Service takes address %q, not Gateway's %q", a, address)
					}
				}
			}
			if cm, ok := obj.(*corev1.ConfigMap); ok {
				var b bootstrapv3.Bootstrap
				if err := protojson.Unmarshal([]byte(cm.Data["envoy.json"]), &b); err != nil {
					t.Fatal(err)
				}
				if err := b.ValidateAll(); err != nil {
					t.Fatalf("the bootstrap of %q: %v", spec, err)
				}
				for key, data := range cm.Data {
					if key == "envoy.json" {
						continue
					}
					var resp discoveryv3.DiscoveryResponse
					if err := protojson.Unmarshal([]byte(data), &resp); err != nil || resp.ValidateAll() != nil {
						t.Fatalf("SDS file %s of %q: %v", key, spec, err)
					}
					for _, r := range resp.GetResources() {
						var secret tlsv3.Secret
						if err := r.UnmarshalTo(&secret); err != nil || secret.ValidateAll() != nil {
							t.Fatalf("SDS file %s of %q: %v, %v", key, spec, err, secret.ValidateAll())
						}
					}
				}
			}
			m, err := meta.Accessor(obj)
			if err != nil {
				t.Fatal(err)
			}
			if errs := validation.IsDNS1123Label(m.GetName()); len(errs) > 0 {
				t.Fatalf("%T name %q: %v", obj, m.GetName(), errs)
			}
		}
	})
}
