package render

import (
	"encoding/json"
	"slices"
	"testing"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame"
)

// validator is what the generated Envoy messages have.
type validator interface{ ValidateAll() error }

// named is a listener or a secret.
type named interface{ GetName() string }

// unpack returns the message in a, having checked that it validates.
func unpack(t *testing.T, what string, a *anypb.Any) proto.Message {
	t.Helper()
	m, err := a.UnmarshalNew()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	v, ok := m.(validator)
	if !ok {
		t.Fatalf("%s: %T has no ValidateAll", what, m)
	}
	if err := v.ValidateAll(); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	return m
}

// readDump reads the xds section of a document in the config dump form, in
// either format, as Envoy's tools would: protojson into adminv3.ConfigDump.
func readDump(t *testing.T, out []byte, f Format) *adminv3.ConfigDump {
	t.Helper()
	if f == YAML {
		var err error
		if out, err = yaml.YAMLToJSON(out); err != nil {
			t.Fatal(err)
		}
	}
	var doc struct {
		XDS    json.RawMessage `json:"xds"`
		Status []any           `json:"status"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Status) == 0 {
		t.Error("the config dump form has no status")
	}
	dump := new(adminv3.ConfigDump)
	if err := protojson.Unmarshal(doc.XDS, dump); err != nil {
		t.Fatalf("xds is not an envoy.admin.v3.ConfigDump: %v", err)
	}
	if err := dump.ValidateAll(); err != nil {
		t.Error(err)
	}
	return dump
}

// TestConfigDump: the config dump form reads back, in YAML and JSON, as an
// envoy.admin.v3.ConfigDump in Envoy's order, whose typed configs and
// resources validate, hold the Result's resources in order, and carry the
// version as Envoy shows config received over ADS.
func TestConfigDump(t *testing.T) {
	_, res := translateGolden(t, "all-gateways-tls")
	r := res.XDS
	if len(r.Listeners) == 0 || len(r.Routes) == 0 || len(r.Clusters) == 0 || len(r.Endpoints) == 0 || len(r.Secrets) == 0 {
		t.Fatal("the case does not have every kind of resource")
	}
	const version = "v7"
	for _, f := range []Format{YAML, JSON} {
		out, err := Options{ConfigDump: true, Version: version}.Document(res, f)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Options{ConfigDump: true, Version: version}.Document(res, f)
		if err != nil || string(again) != string(out) {
			t.Errorf("%s: a second rendering differs (%v)", f, err)
		}
		dump := readDump(t, out, f)
		var got struct {
			listeners, routes, clusters, endpoints, secrets []proto.Message
		}
		var kinds []string
		for i, c := range dump.Configs {
			switch d := unpack(t, "configs", c).(type) {
			case *adminv3.ClustersConfigDump:
				kinds = append(kinds, "clusters")
				checkVersion(t, "clusters", d.VersionInfo, version)
				for _, e := range d.DynamicActiveClusters {
					checkVersion(t, "cluster", e.VersionInfo, version)
					got.clusters = append(got.clusters, unpack(t, "cluster", e.Cluster))
				}
			case *adminv3.EndpointsConfigDump:
				kinds = append(kinds, "endpoints")
				for _, e := range d.DynamicEndpointConfigs {
					checkVersion(t, "endpoints", e.VersionInfo, version)
					got.endpoints = append(got.endpoints, unpack(t, "endpoints", e.EndpointConfig))
				}
			case *adminv3.ListenersConfigDump:
				kinds = append(kinds, "listeners")
				checkVersion(t, "listeners", d.VersionInfo, version)
				for _, e := range d.DynamicListeners {
					checkVersion(t, "listener", e.GetActiveState().GetVersionInfo(), version)
					l := unpack(t, "listener", e.GetActiveState().GetListener())
					if e.Name != l.(named).GetName() {
						t.Errorf("dynamic listener %q holds another listener", e.Name)
					}
					got.listeners = append(got.listeners, l)
				}
			case *adminv3.RoutesConfigDump:
				kinds = append(kinds, "routes")
				for _, e := range d.DynamicRouteConfigs {
					checkVersion(t, "routes", e.VersionInfo, version)
					got.routes = append(got.routes, unpack(t, "routes", e.RouteConfig))
				}
			case *adminv3.SecretsConfigDump:
				kinds = append(kinds, "secrets")
				for _, e := range d.DynamicActiveSecrets {
					checkVersion(t, "secret", e.VersionInfo, version)
					s := unpack(t, "secret", e.Secret)
					if e.Name != s.(named).GetName() {
						t.Errorf("dynamic secret %q holds another secret", e.Name)
					}
					got.secrets = append(got.secrets, s)
				}
			default:
				t.Errorf("configs[%d] is a %T", i, d)
			}
		}
		if want := []string{"clusters", "endpoints", "listeners", "routes", "secrets"}; !slices.Equal(kinds, want) {
			t.Errorf("%s: configs are %v, want Envoy's order %v", f, kinds, want)
		}
		same(t, "listeners", got.listeners, r.Listeners)
		same(t, "routes", got.routes, r.Routes)
		same(t, "clusters", got.clusters, r.Clusters)
		same(t, "endpoints", got.endpoints, r.Endpoints)
		same(t, "secrets", got.secrets, r.Secrets)
	}
}

// TestConfigDumpEmpty: a Result without resources still dumps the five
// typed configs, as Envoy does before it is sent any.
func TestConfigDumpEmpty(t *testing.T) {
	out, err := Options{ConfigDump: true}.Document(&sesame.Result{}, JSON)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XDS json.RawMessage `json:"xds"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	dump := new(adminv3.ConfigDump)
	if err := protojson.Unmarshal(doc.XDS, dump); err != nil {
		t.Fatal(err)
	}
	if len(dump.Configs) != 5 {
		t.Errorf("%d configs, want 5", len(dump.Configs))
	}
	for _, c := range dump.Configs {
		unpack(t, "configs", c)
	}
}

func checkVersion(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s version_info %q, want %q", what, got, want)
	}
}

func same[T proto.Message](t *testing.T, what string, got []proto.Message, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d in the dump, %d in the Result", what, len(got), len(want))
	}
	for i := range got {
		if !proto.Equal(got[i], want[i]) {
			t.Errorf("%s[%d] differs from the Result's", what, i)
		}
	}
}
