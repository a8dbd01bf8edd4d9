package render

import (
	"bytes"
	"fmt"
	"io"

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
	var buf bytes.Buffer
	if err := o.Write(&buf, res, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write renders res in format f to w as it goes: the document is never
// held whole, and list items (Envoy resources, status entries) are
// rendered several at once (stream.go). The bytes are Document's.
func (o Options) Write(w io.Writer, res *sesame.Result, f Format) error {
	if f != YAML && f != JSON {
		return fmt.Errorf("render: unknown format %q (want yaml or json)", f)
	}
	// Sections keep their order (xds before status, as a reader expects);
	// keys inside are sorted.
	xds, err := o.xds(res.XDS)
	if err != nil {
		return err
	}
	sections := []section{{"xds", xds}, {"status", listOf(statusObjects(res.Status))}}
	if len(res.Events) > 0 {
		sections = append(sections, section{"events", listOf(res.Events)})
	}
	if len(res.Warnings) > 0 {
		sections = append(sections, section{"warnings", listOf(res.Warnings)})
	}
	return writeDocument(w, f, sections)
}

// xds returns the value of the xds section: in the default shape, a lazy
// list of protojson messages per resource type.
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
	if o.ConfigDump {
		dump, err := configDump(r, r.Secrets, o.Version)
		if err != nil {
			return nil, err
		}
		return dump, nil
	}
	return map[string]any{
		"clusters":  messagesOf(r.Clusters),
		"endpoints": messagesOf(r.Endpoints),
		"listeners": messagesOf(r.Listeners),
		"routes":    messagesOf(r.Routes),
		"secrets":   messagesOf(r.Secrets),
	}, nil
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
