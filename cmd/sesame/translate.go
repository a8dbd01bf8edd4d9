package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/backendtls"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/render"
)

const translateLong = `Reads Kubernetes objects and prints one document with the Envoy resources
they become and the status each object should get:

  xds:
    listeners: [...]   # envoy.config.listener.v3.Listener
    routes: [...]      # envoy.config.route.v3.RouteConfiguration
    clusters: [...]    # envoy.config.cluster.v3.Cluster
    endpoints: [...]   # envoy.config.endpoint.v3.ClusterLoadAssignment
    secrets: [...]     # envoy.extensions.transport_sockets.tls.v3.Secret
  status:              # Kubernetes objects: apiVersion, kind, metadata, status
    - {apiVersion, kind, metadata: {name, namespace, generation}, status}
  events:              # only when there are some
    - {apiVersion, kind, namespace, name, type, reason, message}
  warnings:            # only when there are some, as on stderr
    - "..."

and, last on stderr, a summary: the objects read, the documents skipped,
the Envoy listeners, route configurations and clusters printed, and the
warnings.

-f PATH takes, as kubectl's does, a YAML or JSON file with one or more
documents (separated by "---", v1 List documents allowed), a directory (its
*.yaml, *.yml and *.json files in name order; with -R those of its
subdirectories too), or "-" for standard input. It is repeatable, and takes
comma-separated paths: -f a.yaml,b.yaml. Objects of namespaced kinds that
name no namespace get the one of -n/--namespace.

Read: GatewayClass, Gateway, HTTPRoute, GRPCRoute, TLSRoute, ReferenceGrant
(gateway.networking.k8s.io/v1; v1beta1, v1alpha2 for GRPCRoute and TLSRoute,
v1alpha3 for TLSRoute), HTTPProxy (projectcontour.io/v1), Ingress
(networking.k8s.io/v1), Service, Secret, Namespace (v1), EndpointSlice
(discovery.k8s.io/v1), UpstreamCluster (proxy.kubegateway.io/v1alpha1).
Objects of other kinds are skipped with a warning on stderr.

UpstreamClusters (a gateway in front of Kubernetes API servers) are served on
one Envoy listener of their own, upstreamcluster/port/PORT, port 443 unless
--upstreamcluster-port says otherwise, each chosen by its name as TLS server
name. Their status has the conditions Accepted (the dispatch policies
compile) and Programmed (served, or why not: for example PortInUse when a
Gateway listener binds the same port; give them another port).

HTTPProxy and Ingress virtual hosts are served on their own Envoy listeners,
by default on ports 8080 (HTTP) and 8443 (HTTPS, by TLS server name), as
Contour's Envoy binds them. When the served Gateway binds the same port, they
join its listener below it: Gateway API routes win identical matches over
HTTPProxy routes, which win over Ingress routes. An Ingress's status has no
conditions, so what Sesame has to say about Ingresses is in the events
section, as a controller would record Kubernetes Events.

The secrets section holds the certificates and private keys of the Secrets
that HTTPS and TLS listeners use, and those UpstreamClusters serve with, as
Envoy receives them (an UpstreamCluster's client certificate and key are in
its clusters). --redact-secrets replaces the keys in both.

Objects that are invalid get a status saying why; the rest is still
translated and the exit code is 0. A document that cannot be decoded (not
YAML, without apiVersion or kind, with a field of the wrong type, with an
unknown or duplicate field under --strict, or past a limit) is reported on
stderr with its file, document number and field, and skipped: the rest is
translated and printed, and the exit code is 3. A path that cannot be read
at all (a missing file) exits 1 with nothing on stdout. Bad flags exit 2.

Limits: a document is at most --max-document-bytes (a List larger than that
is read item by item, each item within it), a value (any string) at most
--max-value-bytes, and the objects read, of every kind, at most
--max-objects. The defaults are above anything a Kubernetes API server
stores.`

const translateExample = `  sesame translate -f testdata/examples/quickstart.yaml
  sesame translate -f manifests/ -R -o json
  kubectl get gateways,httproutes,services,endpointslices -A -o yaml | sesame translate -f -`

// translateOptions are the flags of sesame translate.
type translateOptions struct {
	filenames    []string
	recursive    bool
	output       outputFormat
	namespace    string
	strict       bool
	controller   string
	config       string
	now          timestamp
	bindPorts    portMap
	allGateways  bool
	roots        namespaceList
	httpPort     port
	httpsPort    port
	ingressClass string
	systemCAFile string
	rls          string
	rlsDomain    string
	rlsFailOpen  bool
	fallback     string
	ucPort       port
	limits       manifest.Limits
	gateway      string
	redact       bool
	to           outputShape
}

func newTranslateCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := new(translateOptions)
	cmd := &cobra.Command{
		Use:     "translate -f PATH [-f PATH ...] [flags]",
		Short:   "Print the Envoy resources and the status of Kubernetes objects",
		Long:    translateLong,
		Example: translateExample,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unexpected argument %q (use -f PATH)", args[0])
			}
			return nil
		},
		RunE: func(*cobra.Command, []string) error {
			return o.run(stdin, stdout, stderr)
		},
	}
	o.addFlags(cmd.Flags())
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(outputFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// addFlags defines the flags on fs, and sets o to their defaults.
func (o *translateOptions) addFlags(fs *pflag.FlagSet) {
	o.addInputFlags(fs)
	o.output = outputFormat(render.YAML)
	fs.VarP(&o.output, "output", "o", "output `format`: yaml or json")
	fs.BoolVar(&o.redact, "redact-secrets", false, "replace private keys and other sensitive values with \"REDACTED (N bytes)\",\nto share the output in a bug report")
	fs.Var(&o.to, "to", "the `shape` of the xds section: sesame (default), or config-dump, what Envoy's\nadmin /config_dump prints (version_info: the resources' hash)")
	fs.StringVar(&o.gateway, "gateway", "", "print only the Envoy resources of the Gateway `NAMESPACE/NAME`, as its own\nEnvoy fleet takes them (status stays whole)")
}

// addInputFlags defines the flags of what is read and how it is
// translated, which serve has too, and sets o to their defaults.
func (o *translateOptions) addInputFlags(fs *pflag.FlagSet) {
	o.bindPorts = portMap{}
	fs.StringSliceVarP(&o.filenames, "filename", "f", nil, "a file, a directory, or - for standard input (repeatable, comma-separated; required)")
	fs.BoolVarP(&o.recursive, "recursive", "R", false, "read the directories of -f recursively, as kubectl -R does (default: their files only)")
	fs.StringVarP(&o.namespace, "namespace", "n", "default", "the namespace of objects of namespaced kinds that name none, as kubectl's")
	fs.BoolVar(&o.strict, "strict", false, "make an unknown or duplicate field an error that skips its document\n(as kubectl --validate=strict; default: a warning)")
	fs.StringVar(&o.controller, "controller-name", "", "the GatewayClass spec.controllerName to act for (default: --config's\nspec.gateway.controllerName, else "+dag.DefaultControllerName+")")
	fs.StringVar(&o.config, "config", "projectsesame/sesame", "Sesame's own SesameConfiguration among the input's, `NAMESPACE/NAME`: with the\nparameters GatewayClasses and Gateways name, it decides the Gateways' addresses")
	fs.Var(&o.now, "now", "the `time` written to status lastTransitionTime, RFC 3339\n(default: the current time; set it for reproducible output)")
	fs.Var(o.bindPorts, "bind-port", "`GATEWAY=ENVOY` binds Envoy on port ENVOY for Gateway listeners on port GATEWAY,\ne.g. 80=8080 (repeatable; default: the Gateway's ports)")
	fs.BoolVar(&o.allGateways, "all-gateways", false, "serve every Gateway of the GatewayClass, each into its own resources\n(default: only the oldest, one Gateway per Envoy fleet)")
	fs.Var(&o.roots, "root-namespaces", "the `namespaces` where HTTPProxies may be roots (have spec.virtualhost),\ncomma-separated; repeatable (default: every namespace)")
	fs.Var(&o.httpPort, "ingress-http-port", "the `port` Envoy binds for HTTPProxy and Ingress virtual hosts over HTTP (default 8080)")
	fs.Var(&o.httpsPort, "ingress-https-port", "the `port` Envoy binds for HTTPProxy and Ingress virtual hosts over TLS (default 8443)")
	fs.StringVar(&o.systemCAFile, "system-ca-file", backendtls.DefaultSystemCAFile, "the `file` of the system's CA certificates on Envoy's machine, which\nBackendTLSPolicies with wellKnownCACertificates: System trust")
	fs.StringVar(&o.rls, "rate-limit-service", "", "the ExtensionService `NAMESPACE/NAME` that HTTPProxies' global rate limits ask\n(default: none; such limits then fail closed)")
	fs.StringVar(&o.rlsDomain, "rate-limit-domain", "contour", "the domain of the rate limit service's limits")
	fs.BoolVar(&o.rlsFailOpen, "rate-limit-fail-open", false, "let requests go on when the rate limit service cannot be asked")
	fs.StringVar(&o.fallback, "fallback-certificate", "", "the kubernetes.io/tls Secret `NAMESPACE/NAME` that serves clients without a matching\nserver name, for HTTPProxies that enable it (default: none; they are refused)")
	fs.StringVar(&o.ingressClass, "ingress-class", dag.DefaultIngressClass, "the ingress class to act for: Ingresses and HTTPProxies whose class annotation\nor spec.ingressClassName is it, and those that name no class")
	o.ucPort = sesame.DefaultUpstreamClusterPort
	fs.Var(&o.ucPort, "upstreamcluster-port", "the `port` Envoy binds for UpstreamClusters, all on one listener, each chosen by\nits name as TLS server name")
	o.limits = manifest.Limits{DocumentBytes: manifest.DefaultDocumentBytes, ValueBytes: manifest.DefaultValueBytes, Objects: manifest.DefaultObjects}
	fs.Var((*positive)(&o.limits.DocumentBytes), "max-document-bytes", "the largest document read, in `bytes` (a larger List is read item by item,\neach item within it)")
	fs.Var((*positive)(&o.limits.ValueBytes), "max-value-bytes", "the longest value (any string of an object) read, in `bytes`")
	fs.Var((*positive)(&o.limits.Objects), "max-objects", "the most `objects` read, of every kind, over all inputs")
}

// decoder is the manifest decoder the flags ask for.
func (o *translateOptions) decoder() *manifest.Decoder {
	return &manifest.Decoder{Limits: o.limits, Namespace: o.namespace, Strict: o.strict}
}

// options checks the input flags and makes the translation's options of
// them: a bad value is a usage error.
func (o *translateOptions) options() (sesame.Options, error) {
	if len(o.filenames) == 0 {
		return sesame.Options{}, usageErrorf("no input: give at least one -f PATH")
	}
	if errs := validation.IsDNS1123Label(o.namespace); len(errs) > 0 {
		return sesame.Options{}, usageErrorf("--namespace %q: not a namespace name: %s", o.namespace, strings.Join(errs, "; "))
	}
	at := time.Time(o.now)
	if at.IsZero() {
		at = time.Now().UTC().Truncate(time.Second)
	}
	config, err := namespacedName("config", o.config)
	if err != nil {
		return sesame.Options{}, err
	}
	var rls *dag.RateLimitService
	if o.rls != "" {
		svc, err := namespacedName("rate-limit-service", o.rls)
		if err != nil {
			return sesame.Options{}, err
		}
		rls = &dag.RateLimitService{ExtensionService: svc, Domain: o.rlsDomain, FailOpen: o.rlsFailOpen}
	}
	var fallback *types.NamespacedName
	if o.fallback != "" {
		secret, err := namespacedName("fallback-certificate", o.fallback)
		if err != nil {
			return sesame.Options{}, err
		}
		fallback = &secret
	}
	return sesame.Options{
		ControllerName:      o.controller,
		Config:              config,
		Now:                 at,
		BindPorts:           o.bindPorts,
		AllGateways:         o.allGateways,
		RootNamespaces:      o.roots,
		IngressPorts:        dag.IngressPorts{HTTP: int32(o.httpPort), HTTPS: int32(o.httpsPort)},
		IngressClass:        o.ingressClass,
		SystemCAFile:        o.systemCAFile,
		RateLimitService:    rls,
		FallbackCertificate: fallback,
		// The flag's default is sesame.DefaultUpstreamClusterPort.
		UpstreamClusterPort: int32(o.ucPort),
	}, nil
}

func (o *translateOptions) run(stdin io.Reader, stdout, stderr io.Writer) error {
	opts, err := o.options()
	if err != nil {
		return err
	}
	prog := startProgress(stderr)
	defer prog.end()
	prog.set("reading")
	in, err := load(o.filenames, o.recursive, stdin, o.decoder())
	if err != nil {
		return failure(err)
	}
	for _, w := range in.warnings {
		prog.printf(stderr, "warning: %s\n", w)
	}
	for _, e := range in.skipped {
		prog.printf(stderr, "error: %s\n", e)
	}
	if os.Getenv("GOGC") == "" {
		// The translation and the document are made of the objects read,
		// which stay live to the end, and the translation's output, most of
		// which does too: a collection finds little to free. A GOGC of the
		// user's is kept.
		defer debug.SetGCPercent(debug.SetGCPercent(translatingGCPercent))
	}
	prog.set(fmt.Sprintf("translating %d objects", len(in.objects)))
	res, err := sesame.Translate(in.objects, opts)
	if err != nil {
		return failure(err)
	}
	for _, w := range res.Warnings {
		prog.printf(stderr, "warning: %s\n", w)
	}
	prog.set("writing")
	if o.gateway != "" {
		ns, name, ok := strings.Cut(o.gateway, "/")
		gw := types.NamespacedName{Namespace: ns, Name: name}
		if !ok || !slices.Contains(res.Gateways(), gw) {
			return failure(fmt.Errorf("--gateway %q: not a served Gateway; served: %v", o.gateway, res.Gateways()))
		}
		res.XDS = res.ForGateway(gw)
	}
	// The document holds every warning, the input's first, so that it
	// says all that stderr said of the objects.
	res.Warnings = append(slices.Clone(in.warnings), res.Warnings...)
	// The document streams out as it is rendered, never held whole.
	out := bufio.NewWriterSize(stdout, 1<<16)
	ropts := render.Options{RedactSecrets: o.redact}
	if o.to == shapeConfigDump {
		ropts.ConfigDump, ropts.Version = true, res.Hash() // the hash costs a marshal of everything
	}
	if err := ropts.Write(out, res, render.Format(o.output)); err != nil {
		return failure(err)
	}
	if err := out.Flush(); err != nil {
		return failure(err)
	}
	prog.end()
	fmt.Fprintln(stderr, summary(len(in.objects), len(in.skipped), res, len(in.warnings)+len(res.Warnings)))
	if len(in.skipped) > 0 {
		return &exitError{code: exitSkipped}
	}
	return nil
}

// summary is the last line translate writes on stderr: "sesame translate:
// 10 objects read, 1 listener, 1 route configuration, 2 clusters, 0
// warnings", with the documents skipped after the objects when there are
// some, and where to look when nothing is served. It counts the Envoy
// resources printed.
func summary(objects, skipped int, res *sesame.Result, warnings int) string {
	parts := []string{count(objects, "object") + " read"}
	if skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d %s skipped (errors above; the rest is translated)",
			skipped, quote.Plural(skipped, "document or List item", "documents or List items")))
	}
	parts = append(parts,
		count(len(res.XDS.Listeners), "listener"),
		count(len(res.XDS.Routes), "route configuration"),
		count(len(res.XDS.Clusters), "cluster"),
		count(warnings, "warning"))
	line := "sesame translate: " + strings.Join(parts, ", ")
	switch {
	case len(res.XDS.Listeners) > 0 || objects == 0:
	case warnings > 0:
		line += "; nothing is served (the warnings say why)"
	default:
		// No warning: the objects are in scope, and their status says
		// why (a Gateway whose listeners cannot be programmed).
		line += "; nothing is served (the status says why)"
	}
	return line
}

// count is "1 listener" or "2 listeners".
func count(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, quote.Plural(n, noun, noun+"s"))
}

// namespacedName parses the value of --flag as NAMESPACE/NAME; "" is the
// zero name.
func namespacedName(flag, value string) (types.NamespacedName, error) {
	if value == "" {
		return types.NamespacedName{}, nil
	}
	ns, name, ok := strings.Cut(value, "/")
	if !ok || len(validation.IsDNS1123Label(ns)) > 0 || name == "" {
		return types.NamespacedName{}, usageErrorf("--%s %q: not NAMESPACE/NAME", flag, value)
	}
	return types.NamespacedName{Namespace: ns, Name: name}, nil
}
