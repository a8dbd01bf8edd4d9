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

// document is the shape of the output.
type document struct {
	XDS    xds            `json:"xds"`
	Status []statusObject `json:"status"`
}

type xds struct {
	Listeners []json.RawMessage `json:"listeners"`
	Routes    []json.RawMessage `json:"routes"`
	Clusters  []json.RawMessage `json:"clusters"`
	Endpoints []json.RawMessage `json:"endpoints"`
	Secrets   []json.RawMessage `json:"secrets"`
}

// Document renders res in format f.
func Document(res *sesame.Result, f Format) ([]byte, error) {
	doc, err := build(res)
	if err != nil {
		return nil, err
	}
	// Each section is normalised on its own so that the document keeps xds
	// before status, as a reader expects, while keys inside are sorted.
	xdsJSON, err := normalise(doc.XDS)
	if err != nil {
		return nil, err
	}
	statusJSON, err := normalise(doc.Status)
	if err != nil {
		return nil, err
	}
	var eventsJSON any
	if len(res.Events) > 0 {
		if eventsJSON, err = normalise(res.Events); err != nil {
			return nil, err
		}
	}
	switch f {
	case YAML:
		xdsYAML, err := yaml.JSONToYAML(mustJSON(map[string]any{"xds": xdsJSON}))
		if err != nil {
			return nil, err
		}
		statusYAML, err := yaml.JSONToYAML(mustJSON(map[string]any{"status": statusJSON}))
		if err != nil {
			return nil, err
		}
		out := append(xdsYAML, statusYAML...)
		if eventsJSON != nil {
			eventsYAML, err := yaml.JSONToYAML(mustJSON(map[string]any{"events": eventsJSON}))
			if err != nil {
				return nil, err
			}
			out = append(out, eventsYAML...)
		}
		return out, nil
	case JSON:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		err := enc.Encode(struct {
			XDS    any `json:"xds"`
			Status any `json:"status"`
			Events any `json:"events,omitempty"`
		}{xdsJSON, statusJSON, eventsJSON})
		return buf.Bytes(), err
	default:
		return nil, fmt.Errorf("render: unknown format %q (want yaml or json)", f)
	}
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

func build(res *sesame.Result) (*document, error) {
	doc := &document{Status: statusObjects(res.Status)}
	var err error
	r := res.XDS
	if r == nil {
		r = &xdsgen.Resources{}
	}
	if doc.XDS.Listeners, err = messages(r.Listeners); err != nil {
		return nil, err
	}
	if doc.XDS.Routes, err = messages(r.Routes); err != nil {
		return nil, err
	}
	if doc.XDS.Clusters, err = messages(r.Clusters); err != nil {
		return nil, err
	}
	if doc.XDS.Endpoints, err = messages(r.Endpoints); err != nil {
		return nil, err
	}
	if doc.XDS.Secrets, err = messages(r.Secrets); err != nil {
		return nil, err
	}
	return doc, nil
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
