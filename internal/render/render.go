package render

import (
	"bytes"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/xdsgen"
)

// Format is an output format.
type Format string

// The formats Document writes.
const (
	YAML Format = "yaml"
	JSON Format = "json"
)

// Options change what Document writes; the zero Options write the default
// document.
type Options struct {
	// RedactSecrets replaces the private keys of the Envoy secrets, and
	// every other value Envoy's API marks sensitive (passwords, session
	// ticket keys, generic secrets), with "REDACTED (N bytes)", N the length
	// of the value replaced, so that the output can be shared, in a bug
	// report for instance. The same goes for the private keys clusters hold
	// inline in their upstream TLS context (an UpstreamCluster's
	// clientConfig). A redacted secret still reads as an Envoy Secret
	// (the marker is an inline_string), but Envoy cannot use its key.
	// Certificates, which are public, are kept.
	RedactSecrets bool
	// ConfigDump writes the xds section in the shape Envoy's admin
	// /config_dump prints: an envoy.admin.v3.ConfigDump whose configs are a
	// ClustersConfigDump, an EndpointsConfigDump (which Envoy prints with
	// ?include_eds), a ListenersConfigDump, a RoutesConfigDump and a
	// SecretsConfigDump, in Envoy's order, each resource a dynamic active
	// one, as Envoy shows config it received over ADS.
	ConfigDump bool
	// Version is the version_info of every resource, and of the listener
	// and cluster dumps, in the config dump form; Envoy shows there the
	// version the management server sent.
	Version string
}

// Document renders res in format f with the default Options.
func Document(res *sesame.Result, f Format) ([]byte, error) {
	return Options{}.Document(res, f)
}

// Document renders res in format f.
func (o Options) Document(res *sesame.Result, f Format) ([]byte, error) {
	if f != YAML && f != JSON {
		return nil, fmt.Errorf("render: unknown format %q (want yaml or json)", f)
	}
	// Each section is normalised on its own so that the document keeps xds
	// before status, as a reader expects, while keys inside are sorted.
	xdsJSON, err := o.xds(res.XDS)
	if err != nil {
		return nil, err
	}
	statusJSON, err := normalise(statusObjects(res.Status))
	if err != nil {
		return nil, err
	}
	var eventsJSON, warningsJSON any
	if len(res.Events) > 0 {
		if eventsJSON, err = normalise(res.Events); err != nil {
			return nil, err
		}
	}
	if len(res.Warnings) > 0 {
		warningsJSON = res.Warnings
	}
	if f == JSON {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		err := enc.Encode(struct {
			XDS      any `json:"xds"`
			Status   any `json:"status"`
			Events   any `json:"events,omitempty"`
			Warnings any `json:"warnings,omitempty"`
		}{xdsJSON, statusJSON, eventsJSON, warningsJSON})
		return buf.Bytes(), err
	}
	var out []byte
	for _, s := range []struct {
		key   string
		value any
	}{{"xds", xdsJSON}, {"status", statusJSON}, {"events", eventsJSON}, {"warnings", warningsJSON}} {
		if s.value == nil {
			continue // events and warnings, when there are none
		}
		data, err := yaml.JSONToYAML(mustJSON(map[string]any{s.key: s.value}))
		if err != nil {
			return nil, err
		}
		out = append(out, data...)
	}
	return out, nil
}

// xdsSection is the default shape of the xds section.
type xdsSection struct {
	Listeners []json.RawMessage `json:"listeners"`
	Routes    []json.RawMessage `json:"routes"`
	Clusters  []json.RawMessage `json:"clusters"`
	Endpoints []json.RawMessage `json:"endpoints"`
	Secrets   []json.RawMessage `json:"secrets"`
}

// xds returns the xds section as generic JSON values.
func (o Options) xds(r *xdsgen.Resources) (any, error) {
	if r == nil {
		r = &xdsgen.Resources{}
	}
	if o.RedactSecrets {
		redacted := *r
		redacted.Secrets = redactSecrets(r.Secrets)
		redacted.Clusters = redactClusters(r.Clusters)
		r = &redacted
	}
	secrets := r.Secrets
	if o.ConfigDump {
		dump, err := configDump(r, secrets, o.Version)
		if err != nil {
			return nil, err
		}
		data, err := protojson.Marshal(dump)
		if err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
		var out any
		err = json.Unmarshal(data, &out)
		return out, err
	}
	var s xdsSection
	var err error
	if s.Listeners, err = messages(r.Listeners); err != nil {
		return nil, err
	}
	if s.Routes, err = messages(r.Routes); err != nil {
		return nil, err
	}
	if s.Clusters, err = messages(r.Clusters); err != nil {
		return nil, err
	}
	if s.Endpoints, err = messages(r.Endpoints); err != nil {
		return nil, err
	}
	if s.Secrets, err = messages(secrets); err != nil {
		return nil, err
	}
	return normalise(s)
}

// statusObject is a status entry as a Kubernetes object that the status
// subresource takes (kubectl replace --subresource=status, client-go's
// UpdateStatus).
type statusObject struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
	Status     any        `json:"status"`
}

type objectMeta struct {
	Name       string `json:"name"`
	Namespace  string `json:"namespace,omitempty"`
	Generation int64  `json:"generation,omitempty"`
}

func statusObjects(updates []graph.StatusUpdate) []statusObject {
	out := make([]statusObject, len(updates))
	for i, u := range updates {
		out[i] = statusObject{
			APIVersion: u.APIVersion,
			Kind:       u.Kind,
			Metadata:   objectMeta{Name: u.Name, Namespace: u.Namespace, Generation: u.Generation},
			Status:     u.Status,
		}
	}
	return out
}

// normalise returns v as generic JSON values, whose maps encode with sorted
// keys.
func normalise(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}

// mustJSON encodes values that came from JSON, which cannot fail.
func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic("render: " + err.Error())
	}
	return data
}

func messages[T proto.Message](in []T) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(in))
	for _, m := range in {
		data, err := protojson.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
		out = append(out, data)
	}
	return out, nil
}
