package sesame_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/render"
	"github.com/projectsesame/sesame/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected output of golden cases")

// goldenNow is the status lastTransitionTime of every golden case.
var goldenNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestGolden translates the input.yaml of every testdata/golden/*.txtar case,
// with the settings of its optional options.yaml (allGateways, bindPorts,
// rootNamespaces, ingressPorts, ingressClass, upstreamClusterPort,
// rateLimitService, fallbackCertificate, config),
// and compares the result with its output.yaml: the Envoy resources message
// by message with protocmp, the status as JSON values. With -update it
// rewrites output.yaml instead.
func TestGolden(t *testing.T) {
	files := goldenFiles(t)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) { runGolden(t, file) })
	}
}

func runGolden(t *testing.T, file string) {
	c := loadCase(t, file)
	checkEnvoy(t, c.result)
	checkDeterministic(t, c.objects, c.warnings, c.options, c.rendered)
	archive, got := c.archive, c.rendered

	if *update {
		archive.Set("output.yaml", got)
		if err := os.WriteFile(file, txtar.Format(archive), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, ok := archive.Get("output.yaml")
	if !ok {
		t.Fatalf("%s has no output.yaml; run go test -update to write it", file)
	}
	compareDocuments(t, want, got)
}

// checkEnvoy asserts what every translation must give: resources that pass
// Envoy's validation and form a consistent snapshot.
func checkEnvoy(t *testing.T, res *sesame.Result) {
	t.Helper()
	if err := res.XDS.Validate(); err != nil {
		t.Errorf("ValidateAll: %v", err)
	}
	checkTypedConfigs(t, res)
	snap, err := res.XDS.Snapshot("1")
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	if err := snap.Consistent(); err != nil {
		t.Errorf("Consistent: %v", err)
	}
}

// checkDeterministic translates the objects in several shuffled orders and
// requires byte-identical output.
func checkDeterministic(t *testing.T, objects []runtime.Object, warnings []manifest.Warning, opts sesame.Options, want []byte) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5 {
		shuffled := append([]runtime.Object(nil), objects...)
		rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		res, err := sesame.Translate(shuffled, opts)
		if err != nil {
			t.Fatal(err)
		}
		withInputWarnings(res, warnings)
		got, err := render.Document(res, render.YAML)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("shuffle %d gives different output:\n%s", i, cmp.Diff(string(want), string(got)))
		}
	}
}

// parsedDocument is an output document decoded for comparison.
type parsedDocument struct {
	xds            map[string][]proto.Message
	status, events any
}

// sections maps each xds key to a constructor of its message type.
var sections = map[string]func() proto.Message{
	"listeners": func() proto.Message { return new(listenerv3.Listener) },
	"routes":    func() proto.Message { return new(routev3.RouteConfiguration) },
	"clusters":  func() proto.Message { return new(clusterv3.Cluster) },
	"endpoints": func() proto.Message { return new(endpointv3.ClusterLoadAssignment) },
	"secrets":   func() proto.Message { return new(tlsv3.Secret) },
}

func parseDocument(data []byte) (*parsedDocument, error) {
	jsonData, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var raw struct {
		XDS    map[string][]json.RawMessage `json:"xds"`
		Status any                          `json:"status"`
		Events any                          `json:"events"`
	}
	if err := json.Unmarshal(jsonData, &raw); err != nil {
		return nil, err
	}
	doc := &parsedDocument{xds: map[string][]proto.Message{}, status: raw.Status, events: raw.Events}
	for key, items := range raw.XDS {
		newMessage, ok := sections[key]
		if !ok {
			return nil, fmt.Errorf("unknown xds section %q", key)
		}
		for i, item := range items {
			m := newMessage()
			if err := protojson.Unmarshal(item, m); err != nil {
				return nil, fmt.Errorf("xds.%s[%d]: %w", key, i, err)
			}
			doc.xds[key] = append(doc.xds[key], m)
		}
	}
	return doc, nil
}

// compareDocuments reports a readable difference between the expected and
// actual output: per Envoy resource kind with protocmp, and for status.
func compareDocuments(t *testing.T, wantData, gotData []byte) {
	t.Helper()
	want, err := parseDocument(wantData)
	if err != nil {
		t.Fatalf("expected output: %v", err)
	}
	got, err := parseDocument(gotData)
	if err != nil {
		t.Fatalf("actual output: %v", err)
	}
	for key := range sections {
		if diff := cmp.Diff(want.xds[key], got.xds[key], protocmp.Transform()); diff != "" {
			t.Errorf("xds.%s differs (-want +got):\n%s", key, diff)
		}
	}
	if diff := cmp.Diff(want.status, got.status); diff != "" {
		t.Errorf("status differs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.events, got.events); diff != "" {
		t.Errorf("events differ (-want +got):\n%s", diff)
	}
}

// TestGoldenUpdateIsIdempotent checks that what -update writes reads back
// unchanged: rewriting a case twice changes nothing.
func TestGoldenUpdateIsIdempotent(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range files {
		c := loadCase(t, file)
		archive, rendered := c.archive, c.rendered
		archive.Set("output.yaml", rendered)
		once := txtar.Format(archive)
		reread := txtar.Parse(once)
		if got, _ := reread.Get("output.yaml"); !bytes.Equal(got, rendered) {
			t.Errorf("%s: output.yaml does not read back as written", file)
		}
		if twice := txtar.Format(reread); !bytes.Equal(twice, once) {
			t.Errorf("%s: a second rewrite changes the file", file)
		}
	}
}

// goldenCase is a golden file, read and translated.
type goldenCase struct {
	archive  *txtar.Archive
	options  sesame.Options // from the optional options.yaml
	objects  []runtime.Object
	warnings []manifest.Warning // the input's, which the document lists first
	result   *sesame.Result
	rendered []byte // what sesame translate prints for the input
}

// withInputWarnings puts the input's warnings before the translation's, as
// sesame translate's document lists them.
func withInputWarnings(res *sesame.Result, warnings []manifest.Warning) {
	var all []string
	for _, w := range warnings {
		all = append(all, w.String())
	}
	res.Warnings = append(all, res.Warnings...)
}

// goldenFiles are the golden cases' files; none is a failure.
func goldenFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatal("no golden cases in testdata/golden", err)
	}
	return files
}

func loadCase(t *testing.T, file string) *goldenCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c := &goldenCase{archive: txtar.Parse(data)}
	input, ok := c.archive.Get("input.yaml")
	if !ok {
		t.Fatalf("%s has no input.yaml", file)
	}
	if c.objects, c.warnings, err = manifest.Decode(file, bytes.NewReader(input)); err != nil {
		t.Fatal(err)
	}
	c.options = sesame.Options{Now: goldenNow}
	if data, ok := c.archive.Get("options.yaml"); ok {
		var o struct {
			AllGateways    bool            `json:"allGateways"`
			BindPorts      map[int32]int32 `json:"bindPorts"`
			RootNamespaces []string        `json:"rootNamespaces"`
			IngressPorts   struct {
				HTTP  int32 `json:"http"`
				HTTPS int32 `json:"https"`
			} `json:"ingressPorts"`
			IngressClass        string `json:"ingressClass"`
			UpstreamClusterPort int32  `json:"upstreamClusterPort"`
			RateLimitService    *struct {
				ExtensionService            string `json:"extensionService"`
				Domain                      string `json:"domain"`
				FailOpen                    bool   `json:"failOpen"`
				EnableXRateLimitHeaders     bool   `json:"enableXRateLimitHeaders"`
				EnableResourceExhaustedCode bool   `json:"enableResourceExhaustedCode"`
			} `json:"rateLimitService"`
			FallbackCertificate string `json:"fallbackCertificate"`
			Config              string `json:"config"`
		}
		if err := yaml.UnmarshalStrict(data, &o); err != nil {
			t.Fatalf("%s: options.yaml: %v", file, err)
		}
		c.options.AllGateways, c.options.BindPorts = o.AllGateways, o.BindPorts
		c.options.RootNamespaces = o.RootNamespaces
		c.options.IngressPorts = dag.IngressPorts{HTTP: o.IngressPorts.HTTP, HTTPS: o.IngressPorts.HTTPS}
		c.options.IngressClass = o.IngressClass
		c.options.UpstreamClusterPort = o.UpstreamClusterPort
		if ns, name, ok := strings.Cut(o.Config, "/"); ok {
			c.options.Config = types.NamespacedName{Namespace: ns, Name: name}
		}
		if ns, name, ok := strings.Cut(o.FallbackCertificate, "/"); ok {
			c.options.FallbackCertificate = &types.NamespacedName{Namespace: ns, Name: name}
		}
		if r := o.RateLimitService; r != nil {
			ns, name, _ := strings.Cut(r.ExtensionService, "/")
			c.options.RateLimitService = &dag.RateLimitService{
				ExtensionService: types.NamespacedName{Namespace: ns, Name: name}, Domain: r.Domain, FailOpen: r.FailOpen,
				EnableXRateLimitHeaders: r.EnableXRateLimitHeaders, EnableResourceExhaustedCode: r.EnableResourceExhaustedCode,
			}
		}
	}
	if c.result, err = sesame.Translate(c.objects, c.options); err != nil {
		t.Fatal(err)
	}
	if len(c.result.Repairs) > 0 {
		t.Fatalf("Translate took out messages Envoy would refuse (a bug): %v", c.result.Repairs)
	}
	withInputWarnings(c.result, c.warnings)
	if c.rendered, err = render.Document(c.result, render.YAML); err != nil {
		t.Fatal(err)
	}
	return c
}
