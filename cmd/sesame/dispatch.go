package main

import (
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/flowcontrol"
)

const dispatchLong = `Reads one UpstreamCluster (proxy.kubegateway.io/v1alpha1) and tells what a
request to it would meet: the attributes Kubernetes would read from it, the
dispatch policy and rule that match (policies in order, the first match
wins), the upstream subset and the server round robin would pick first, and
the flow control schema; or that no policy matches.

Exit codes: 0 when the request was evaluated (matched or not), 1 when the
file cannot be read or its policies do not compile, 2 for bad flags.`

const dispatchExample = `  sesame dispatch -f testdata/examples/upstreamcluster.yaml \
    --url '/api/v1/namespaces/default/pods?watch=true' --user alice --group system:authenticated`

// dispatchOptions are the flags of sesame dispatch.
type dispatchOptions struct {
	filename string
	method   string
	url      string
	user     string
	groups   []string
}

func newDispatchCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := new(dispatchOptions)
	cmd := &cobra.Command{
		Use:     "dispatch -f UPSTREAMCLUSTER [flags]",
		Short:   "Show which dispatch policy of an UpstreamCluster a request meets",
		Long:    dispatchLong,
		Example: dispatchExample,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unexpected argument %q (use -f UPSTREAMCLUSTER)", args[0])
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error {
			return o.run(stdin, stdout, stderr)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&o.filename, "filename", "f", "", "the UpstreamCluster manifest (YAML or JSON), or - for standard input (required)")
	fs.StringVar(&o.method, "method", "GET", "the request's HTTP method")
	fs.StringVar(&o.url, "url", "/", "the request's path and query, e.g. /api/v1/namespaces/default/pods?watch=true")
	fs.StringVar(&o.user, "user", "", "the authenticated user name, e.g. alice or system:serviceaccount:ns:name")
	fs.StringArrayVar(&o.groups, "group", nil, "a `group` of the user (repeatable)")
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	return cmd
}

func (o *dispatchOptions) run(stdin io.Reader, stdout, stderr io.Writer) error {
	if o.filename == "" {
		return usageErrorf("no input: give one -f UPSTREAMCLUSTER")
	}
	if !strings.HasPrefix(o.url, "/") {
		return usageErrorf("--url %q: want a path starting with /", o.url)
	}
	uc, err := readUpstreamCluster(o.filename, stdin)
	if err != nil {
		return failure(err)
	}
	d, warnings, err := dispatch.Compile(uc.Spec.DispatchPolicies)
	if err != nil {
		return failure(fmt.Errorf("%s: %w", o.filename, err))
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	req := httptest.NewRequest(strings.ToUpper(o.method), o.url, nil)
	attrs := dispatch.AttributesFromRequest(req, o.user, o.groups)
	fmt.Fprintf(stdout, "request: %s %s as %q %v\n", req.Method, o.url, o.user, o.groups)
	describeAttributes(stdout, &attrs)

	policy, rule, ok := d.Match(&attrs)
	if !ok {
		fmt.Fprintf(stdout, "result: no dispatch policy of UpstreamCluster %q matches; the request is not forwarded\n", uc.Name)
		return nil
	}
	p := uc.Spec.DispatchPolicies[policy]
	fmt.Fprintf(stdout, "result: dispatchPolicies[%d].rules[%d] matches\n", policy, rule)
	subset := "all servers"
	if len(p.UpstreamSubset) > 0 {
		subset = strings.Join(p.UpstreamSubset, ", ")
	}
	fmt.Fprintf(stdout, "  upstream subset: %s\n", subset)
	ups, err := dispatch.NewUpstreams(uc.Spec.Servers)
	if err == nil {
		var warning string
		if warning, err = ups.Prepare(p.UpstreamSubset); warning != "" {
			fmt.Fprintf(stderr, "warning: %s\n", warning)
		}
	}
	if err != nil {
		fmt.Fprintf(stdout, "  upstream: none (%v)\n", err)
	} else if endpoint, err := ups.Pick(p.UpstreamSubset); err != nil {
		fmt.Fprintf(stdout, "  upstream: none (%v)\n", err)
	} else {
		fmt.Fprintf(stdout, "  upstream: %s (round robin, first pick)\n", endpoint)
	}
	description, warning := describeSchema(uc, p.FlowControlSchemaName)
	if warning != "" {
		fmt.Fprintf(stderr, "warning: %s\n", warning)
	}
	fmt.Fprintf(stdout, "  flow control: %s\n", description)
	return nil
}

func readUpstreamCluster(path string, stdin io.Reader) (*v1alpha1.UpstreamCluster, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	uc := &v1alpha1.UpstreamCluster{}
	if err := yaml.Unmarshal(data, uc); err != nil {
		return nil, fmt.Errorf("%s: not an UpstreamCluster: %w", path, err)
	}
	if uc.APIVersion != v1alpha1.GroupVersion.String() || uc.Kind != "UpstreamCluster" {
		return nil, fmt.Errorf("%s: apiVersion %q kind %q: want %s UpstreamCluster", path, uc.APIVersion, uc.Kind, v1alpha1.GroupVersion)
	}
	return uc, nil
}

func describeAttributes(w io.Writer, a *dispatch.Attributes) {
	if a.IsResourceRequest {
		fmt.Fprintf(w, "  resource request: verb=%s apiGroup=%q resource=%q subresource=%q namespace=%q name=%q\n",
			a.Verb, a.APIGroup, a.Resource, a.Subresource, a.Namespace, a.Name)
		return
	}
	fmt.Fprintf(w, "  non-resource request: verb=%s path=%q\n", a.Verb, a.Path)
}

// describeSchema names the flow control schema a policy uses, and what it
// limits, as flowcontrol.Set decides it: an unset name means no limit, and
// an unknown name, or a list of schemas the Set refuses, means Exempt with
// a warning, which is returned too.
func describeSchema(uc *v1alpha1.UpstreamCluster, name string) (description, warning string) {
	schemas := uc.Spec.FlowControl.Schemas
	set, err := flowcontrol.NewSet(schemas)
	if err != nil {
		// The Set keeps none of the schemas; every name falls back.
		set = new(flowcontrol.Set)
		warning = fmt.Sprintf("flowControl.flowControlSchemas are not valid, so every policy is exempt: %v", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	l, w := set.Get(name)
	if warning == "" {
		warning = w
	}
	switch l := l.(type) {
	case *flowcontrol.InflightLimiter:
		return fmt.Sprintf("%q: at most %d requests in flight", name, l.Max()), warning
	case *flowcontrol.TokenBucketLimiter:
		return fmt.Sprintf("%q: token bucket, %d per second, bursts of %d", name, l.QPS(), l.Burst()), warning
	}
	switch {
	case name == "":
		return "none (exempt)", warning
	case w != "" || err != nil:
		return fmt.Sprintf("%q: exempt (no such schema)", name), warning
	}
	return fmt.Sprintf("%q: exempt", name), warning
}
