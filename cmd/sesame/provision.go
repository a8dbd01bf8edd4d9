package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/internal/render"
	"github.com/projectsesame/sesame/provision"
)

const provisionLong = `Reads Kubernetes manifests, as sesame translate does, with a SesameConfiguration
(projectsesame.io/v1alpha1), and prints the Kubernetes objects of the Envoy fleet
of every Gateway Sesame serves: a ServiceAccount, a ConfigMap with Envoy's
bootstrap, a DaemonSet or Deployment and a Service, as kubectl apply -f - takes
them (YAML documents, or with -o json a v1 List). Sesame's own configuration is
--config; GatewayClass and Gateway parametersRefs may name others. A Gateway
whose configuration has no envoy field is unmanaged, and one whose
configuration is not valid is left alone: neither prints objects, and standard
error says why, as it says the configuration's status.

Exit codes: 0 when the fleets were computed, 1 when the input cannot be read,
2 for bad flags.`

const provisionExample = `  sesame provision -f testdata/examples/ | kubectl apply -f -
  sesame provision -f cluster.yaml --config projectsesame/sesame --bind-port 80=8080 -o json`

// provisionOptions are the flags of sesame provision.
type provisionOptions struct {
	filenames []string
	recursive bool
	namespace string
	output    outputFormat
	config    string
	bindPorts portMap
	all       bool
}

func newProvisionCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &provisionOptions{output: outputFormat(render.YAML), bindPorts: portMap{}}
	cmd := &cobra.Command{
		Use:     "provision -f PATH [-f PATH ...] [flags]",
		Short:   "Print the Kubernetes objects of each served Gateway's Envoy fleet",
		Long:    provisionLong,
		Example: provisionExample,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unexpected argument %q (use -f PATH)", args[0])
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error { return o.run(stdin, stdout, stderr) },
	}
	fs := cmd.Flags()
	fs.StringSliceVarP(&o.filenames, "filename", "f", nil, "a file, a directory, or - for standard input (repeatable, comma-separated; required)")
	fs.BoolVarP(&o.recursive, "recursive", "R", false, "read the directories of -f recursively, as kubectl -R does")
	fs.StringVarP(&o.namespace, "namespace", "n", "default", "the namespace of objects of namespaced kinds that name none, as kubectl's")
	fs.VarP(&o.output, "output", "o", "output `format`: yaml or json")
	fs.StringVar(&o.config, "config", "projectsesame/sesame", "Sesame's own SesameConfiguration, `NAMESPACE/NAME` (absent: every fleet is unmanaged)")
	fs.Var(o.bindPorts, "bind-port", "`GATEWAY=ENVOY` binds Envoy on port ENVOY for Gateway listeners on port GATEWAY (repeatable)")
	fs.BoolVar(&o.all, "all-gateways", false, "serve every Gateway of the GatewayClass, each with its own fleet (default: only the oldest)")
	return cmd
}

func (o *provisionOptions) run(stdin io.Reader, stdout, stderr io.Writer) error {
	if len(o.filenames) == 0 {
		return usageErrorf("no input: give at least one -f PATH")
	}
	configName, err := namespacedName("config", o.config)
	if err != nil {
		return err
	}
	tr := &translateOptions{namespace: o.namespace}
	in, err := load(o.filenames, o.recursive, stdin, tr.decoder())
	if err != nil {
		return failure(err)
	}
	for _, w := range in.warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	var own *v1alpha1.SesameConfiguration
	for _, obj := range in.objects {
		if x, ok := obj.(*v1alpha1.SesameConfiguration); ok && x.Namespace == configName.Namespace && x.Name == configName.Name {
			own = x
		}
	}
	if own == nil {
		fmt.Fprintf(stderr, "warning: no SesameConfiguration %s in the input: every fleet is unmanaged\n", o.config)
	}
	now := time.Now().UTC().Truncate(time.Second)
	// The translation decides which Gateways are served, and their status
	// agrees with the fleets: it reads the same configurations.
	res, err := sesame.Translate(in.objects, sesame.Options{Config: configName, Now: now, BindPorts: o.bindPorts, AllGateways: o.all})
	if err != nil {
		return failure(err)
	}
	fleets := res.Fleets(in.objects)
	out := provision.Provision(provision.Input{Gateways: fleets, Config: own}, provision.Options{BindPorts: o.bindPorts})
	if own != nil && out.ConfigStatus != nil {
		for _, c := range out.ConfigStatus.Conditions {
			fmt.Fprintf(stderr, "SesameConfiguration %s: %s=%s %s: %s\n", o.config, c.Type, c.Status, c.Reason, c.Message)
		}
	}
	var objects []runtime.Object
	for _, f := range out.Fleets {
		switch {
		case f.Problem != "":
			fmt.Fprintf(stderr, "Gateway %s: left alone: %s\n", f.Gateway, f.Problem)
		case !f.Managed:
			fmt.Fprintf(stderr, "Gateway %s: unmanaged (no envoy configuration): its fleet is the operator's\n", f.Gateway)
		}
		objects = append(objects, f.Objects...)
	}
	if len(fleets) == 0 {
		fmt.Fprintln(stderr, "warning: no Gateway is served: nothing to provision")
	}
	return writeObjects(stdout, objects, render.Format(o.output))
}

// writeObjects prints objects as kubectl apply takes them: YAML documents,
// or a v1 List in JSON, without status or empty creationTimestamps.
func writeObjects(w io.Writer, objects []runtime.Object, format render.Format) error {
	items := make([]any, 0, len(objects))
	for _, obj := range objects {
		data, err := json.Marshal(obj)
		if err != nil {
			return failure(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			return failure(err)
		}
		delete(m, "status")
		items = append(items, withoutNullTimestamps(m))
	}
	if format == render.JSON {
		data, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", "  ")
		if err != nil {
			return failure(err)
		}
		_, err = fmt.Fprintf(w, "%s\n", data)
		return err
	}
	for i, item := range items {
		data, err := yaml.Marshal(item)
		if err != nil {
			return failure(err)
		}
		if i > 0 {
			fmt.Fprintln(w, "---")
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	return nil
}

// withoutNullTimestamps removes every "creationTimestamp": null, which Go's
// ObjectMeta writes for an object not yet created.
func withoutNullTimestamps(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "creationTimestamp" && e == nil {
				delete(x, k)
				continue
			}
			x[k] = withoutNullTimestamps(e)
		}
	case []any:
		for i, e := range x {
			x[i] = withoutNullTimestamps(e)
		}
	}
	return v
}
