package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/render"
)

const translateUsage = `Usage: sesame translate -f PATH [-f PATH ...] [flags]

Reads Kubernetes objects and prints one document with the Envoy resources
they become and the status each object should get:

  xds:
    listeners: [...]   # envoy.config.listener.v3.Listener
    routes: [...]      # envoy.config.route.v3.RouteConfiguration
    clusters: [...]    # envoy.config.cluster.v3.Cluster
    endpoints: [...]   # envoy.config.endpoint.v3.ClusterLoadAssignment
    secrets: [...]     # envoy.extensions.transport_sockets.tls.v3.Secret
  status:
    - {apiVersion, kind, namespace, name, status}
  events:              # only when there are some
    - {apiVersion, kind, namespace, name, type, reason, message}

PATH is a YAML or JSON file with one or more documents (separated by "---",
v1 List documents allowed), a directory (its *.yaml, *.yml and *.json files,
recursively, in name order), or "-" for standard input.

Read: GatewayClass, Gateway, HTTPRoute, GRPCRoute, TLSRoute, ReferenceGrant
(gateway.networking.k8s.io/v1; v1beta1, v1alpha2 for GRPCRoute and TLSRoute,
v1alpha3 for TLSRoute), HTTPProxy (projectcontour.io/v1), Ingress
(networking.k8s.io/v1), Service, Secret, Namespace (v1), EndpointSlice
(discovery.k8s.io/v1). Objects of other kinds are skipped with a warning on
stderr.

HTTPProxy and Ingress virtual hosts are served on their own Envoy listeners,
by default on ports 8080 (HTTP) and 8443 (HTTPS, by TLS server name), as
Contour's Envoy binds them. When the served Gateway binds the same port, they
join its listener below it: Gateway API routes win identical matches over
HTTPProxy routes, which win over Ingress routes. An Ingress's status has no
conditions, so what Sesame has to say about Ingresses is in the events
section, as a controller would record Kubernetes Events.

The secrets section holds the certificates and private keys of the Secrets
that HTTPS and TLS listeners use, as Envoy receives them.

Objects that are invalid get a status saying why; the rest is still
translated and the exit code is 0. A document that cannot be decoded (not
YAML, without apiVersion or kind, with a field of the wrong type, or past a
limit) is reported on stderr with its file, document number and field, and
skipped: the rest is translated and printed, and the exit code is 3. A path
that cannot be read at all (a missing file) exits 1 with nothing on stdout.
Bad flags exit 2.

Limits: a document is at most --max-document-bytes (a List larger than that
is read item by item, each item within it), a value (any string) at most
--max-value-bytes, and the objects read, of every kind, at most
--max-objects. The defaults are above anything a Kubernetes API server
stores.

Flags:
`

// portMap collects repeated --bind-port GATEWAY=ENVOY flags.
type portMap map[int32]int32

func (m portMap) String() string {
	var parts []string
	for from, to := range m {
		parts = append(parts, fmt.Sprintf("%d=%d", from, to))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func (m portMap) Set(v string) error {
	from, to, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want GATEWAY=ENVOY, like 80=8080")
	}
	f, err1 := strconv.ParseUint(from, 10, 16)
	t, err2 := strconv.ParseUint(to, 10, 16)
	if err1 != nil || err2 != nil || f == 0 || t == 0 {
		return fmt.Errorf("ports must be numbers in 1-65535")
	}
	m[int32(f)] = int32(t)
	return nil
}

// namespaceList collects --root-namespaces, comma-separated and repeatable.
type namespaceList []string

func (n *namespaceList) String() string { return strings.Join(*n, ",") }

func (n *namespaceList) Set(v string) error {
	for ns := range strings.SplitSeq(v, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			*n = append(*n, ns)
		}
	}
	return nil
}

// port is a port flag: 1-65535, or 0 for the default.
type port int32

func (p *port) String() string { return strconv.Itoa(int(*p)) }

func (p *port) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil || n == 0 {
		return fmt.Errorf("ports must be numbers in 1-65535")
	}
	*p = port(n)
	return nil
}

// pathList collects repeated -f flags.
type pathList []string

func (p *pathList) String() string     { return strings.Join(*p, ",") }
func (p *pathList) Set(v string) error { *p = append(*p, v); return nil }

func translate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("translate", translateUsage, stderr)
	var (
		paths      pathList
		output     = fs.String("o", "yaml", "output format: yaml or json")
		controller = fs.String("controller-name", dag.DefaultControllerName, "the GatewayClass spec.controllerName to act for")
		now        = fs.String("now", "", "the time written to status lastTransitionTime, RFC 3339\n(default: the current time; set it for reproducible output)")
	)
	fs.Var(&paths, "f", "a file, a directory, or - for standard input (repeatable, required)")
	bindPorts := portMap{}
	fs.Var(bindPorts, "bind-port", "GATEWAY=ENVOY: bind Envoy on port ENVOY for Gateway listeners on port GATEWAY,\ne.g. 80=8080 (repeatable; default: the Gateway's ports)")
	allGateways := fs.Bool("all-gateways", false, "serve every Gateway of the GatewayClass, each into its own resources\n(default: only the oldest, one Gateway per Envoy fleet)")
	var roots namespaceList
	fs.Var(&roots, "root-namespaces", "NS[,NS...]: the namespaces where HTTPProxies may be roots (have\nspec.virtualhost); repeatable (default: every namespace)")
	var httpPort, httpsPort port
	fs.Var(&httpPort, "ingress-http-port", "the port Envoy binds for HTTPProxy and Ingress virtual hosts over HTTP (default 8080)")
	fs.Var(&httpsPort, "ingress-https-port", "the port Envoy binds for HTTPProxy and Ingress virtual hosts over TLS (default 8443)")
	ingressClass := fs.String("ingress-class", dag.DefaultIngressClass, "the ingress class to act for: Ingresses and HTTPProxies whose class annotation\nor spec.ingressClassName is it, and those that name no class")
	var limits manifest.Limits
	fs.IntVar(&limits.DocumentBytes, "max-document-bytes", manifest.DefaultDocumentBytes, "the largest document read, in bytes (a larger List is read item by item,\neach item within it)")
	fs.IntVar(&limits.ValueBytes, "max-value-bytes", manifest.DefaultValueBytes, "the longest value (any string of an object) read, in bytes")
	fs.IntVar(&limits.Objects, "max-objects", manifest.DefaultObjects, "the most objects read, of every kind, over all inputs")
	onlyGateway := fs.String("gateway", "", "NAMESPACE/NAME: print only the Envoy resources of this Gateway, as its own\nEnvoy fleet takes them (status stays whole)")
	if code, done := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sesame translate: unexpected argument %q (use -f PATH)\n", fs.Arg(0))
		return 2
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "sesame translate: no input: give at least one -f PATH")
		return 2
	}
	for _, l := range []struct {
		flag  string
		value int
	}{{"max-document-bytes", limits.DocumentBytes}, {"max-value-bytes", limits.ValueBytes}, {"max-objects", limits.Objects}} {
		if l.value <= 0 {
			fmt.Fprintf(stderr, "sesame translate: --%s %d: want a positive number\n", l.flag, l.value)
			return 2
		}
	}
	format := render.Format(*output)
	if format != render.YAML && format != render.JSON {
		fmt.Fprintf(stderr, "sesame translate: -o %q: want yaml or json\n", *output)
		return 2
	}
	at := time.Now().UTC().Truncate(time.Second)
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			fmt.Fprintf(stderr, "sesame translate: -now: %v\n", err)
			return 2
		}
		at = t
	}

	objects, warnings, skipped, err := load(paths, stdin, limits)
	if err != nil {
		fmt.Fprintf(stderr, "sesame translate: %v\n", err)
		return 1
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	for _, e := range skipped {
		fmt.Fprintf(stderr, "error: %s\n", e)
	}
	res, err := sesame.Translate(objects, sesame.Options{
		ControllerName: *controller,
		Now:            at,
		BindPorts:      bindPorts,
		AllGateways:    *allGateways,
		RootNamespaces: roots,
		IngressPorts:   dag.IngressPorts{HTTP: int32(httpPort), HTTPS: int32(httpsPort)},
		IngressClass:   *ingressClass,
	})
	if err != nil {
		fmt.Fprintf(stderr, "sesame translate: %v\n", err)
		return 1
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if *onlyGateway != "" {
		ns, name, ok := strings.Cut(*onlyGateway, "/")
		gw := types.NamespacedName{Namespace: ns, Name: name}
		if !ok || !slices.Contains(res.Gateways(), gw) {
			fmt.Fprintf(stderr, "sesame translate: --gateway %q: not a served Gateway; served: %v\n", *onlyGateway, res.Gateways())
			return 1
		}
		res.XDS = res.ForGateway(gw)
	}
	out, err := render.Document(res, format)
	if err != nil {
		fmt.Fprintf(stderr, "sesame translate: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "sesame translate: %v\n", err)
		return 1
	}
	if len(skipped) > 0 {
		fmt.Fprintf(stderr, "sesame translate: %d %s could not be read and %s skipped (errors above); the rest is translated\n",
			len(skipped), plural(len(skipped), "document or List item", "documents or List items"), plural(len(skipped), "was", "were"))
		return exitSkipped
	}
	return 0
}

// exitSkipped is the exit code when some documents were skipped: the output
// is printed, but it translates only the rest.
const exitSkipped = 3

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
