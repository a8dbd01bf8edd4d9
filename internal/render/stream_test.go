package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/xdsgen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// wholeDocument renders res as a whole, the way Sesame did before it
// streamed: the document as generic JSON values, then encoding/json with
// two-space indentation, or sigs.k8s.io/yaml's JSONToYAML section by
// section. Write must give the same bytes.
func wholeDocument(t *testing.T, res *sesame.Result, f Format) []byte {
	t.Helper()
	all := func(v any, err error) any {
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	xds := map[string]any{}
	for key, list := range map[string][]proto.Message{
		"clusters": protos(res.XDS.Clusters), "endpoints": protos(res.XDS.Endpoints), "listeners": protos(res.XDS.Listeners),
		"routes": protos(res.XDS.Routes), "secrets": protos(res.XDS.Secrets),
	} {
		items := []any{}
		for _, m := range list {
			items = append(items, all(plainValue(m)))
		}
		xds[key] = items
	}
	doc := map[string]any{"xds": xds, "status": all(normalise(statusObjects(res.Status)))}
	if len(res.Events) > 0 {
		doc["events"] = all(normalise(res.Events))
	}
	if len(res.Warnings) > 0 {
		doc["warnings"] = all(normalise(res.Warnings))
	}
	if f == JSON {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			XDS      any `json:"xds"`
			Status   any `json:"status"`
			Events   any `json:"events,omitempty"`
			Warnings any `json:"warnings,omitempty"`
		}{doc["xds"], doc["status"], doc["events"], doc["warnings"]}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	var out []byte
	for _, key := range []string{"xds", "status", "events", "warnings"} {
		if doc[key] == nil {
			continue
		}
		section, err := json.Marshal(map[string]any{key: doc[key]})
		if err != nil {
			t.Fatal(err)
		}
		y, err := yaml.JSONToYAML(section)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, y...)
	}
	return out
}

// TestStreamMatchesWholeDocument: the streamed document, whose long lists
// are rendered item by item at their column, even inside one Envoy
// resource (a route configuration of many virtual hosts, a virtual host
// of many routes), is byte for byte the document rendered whole; so is a
// virtual host long enough (bigAt) that the document's writer streams it.
func TestStreamMatchesWholeDocument(t *testing.T) {
	for _, c := range []gen.Config{
		{Seed: 1, Routes: 300, Hostnames: 2},   // virtual hosts of 64+ routes, rendered whole by workers
		{Seed: 4, Routes: 700, Hostnames: 2},   // virtual hosts of 256+ routes, streamed
		{Seed: 2, Routes: 700, Hostnames: 140}, // a route configuration of 64+ virtual hosts
		{Seed: 3, Routes: 40, Hostless: 300, Wildcard: 300},
	} {
		res, err := sesame.Translate(gen.Objects(c), sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		res.Warnings = append(res.Warnings, strings.Repeat("a long warning that folds, ", 12), "line one\nline two", "<&> \u2028 tab\t")
		for _, f := range []Format{YAML, JSON} {
			got, err := Document(res, f)
			if err != nil {
				t.Fatal(err)
			}
			if d := firstDifference(got, wholeDocument(t, res, f)); d != "" {
				t.Fatalf("%+v %s: %s", c, f, d)
			}
		}
	}
}

// firstDifference says where got and want part, with some of each around
// that byte; "" when they are equal.
func firstDifference(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	excerpt := func(b []byte) string { return string(b[max(0, i-80):min(len(b), i+80)]) }
	return fmt.Sprintf("differs at byte %d:\n got %q\nwant %q", i, excerpt(got), excerpt(want))
}

func protos[T proto.Message](in []T) []proto.Message {
	out := make([]proto.Message, len(in))
	for i, m := range in {
		out[i] = m
	}
	return out
}

// TestStreamStopsAtAnError: a message that cannot be rendered (an Any of
// an unknown type), among many, makes Write fail in both formats, and
// the workers stop (the race detector and the test's end would show a
// leak or a write after return).
func TestStreamStopsAtAnError(t *testing.T) {
	clusters := make([]*clusterv3.Cluster, 500)
	for i := range clusters {
		clusters[i] = &clusterv3.Cluster{Name: fmt.Sprint("c", i)}
	}
	clusters[321].TransportSocket = &corev3.TransportSocket{Name: "t", ConfigType: &corev3.TransportSocket_TypedConfig{
		TypedConfig: &anypb.Any{TypeUrl: "type.googleapis.com/no.such.Type"},
	}}
	res := &sesame.Result{XDS: &xdsgen.Resources{Clusters: clusters}}
	for _, f := range []Format{JSON, YAML} {
		if _, err := Document(res, f); err == nil || !strings.Contains(err.Error(), "no.such.Type") {
			t.Errorf("%s: %v", f, err)
		}
	}
}
