package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/explain"
)

const explainLong = `Explain where one request goes, and why not elsewhere, without deploying anything.

explain translates the objects as translate does, then walks the request
through the Envoy configuration as Envoy would: the listener on its port, the
filter chain its TLS server name picks, the virtual host of its host, the
first route that matches it, and that route's action (the backend Services
with their weights and endpoints, a redirect, or a direct response, with
rewrites and the filters that act on it). Each step names the Kubernetes
object behind it. The routes tried before the one that matched, the filter
chains passed over and the routes the Gateway did not attach are listed
under "skipped", each with the reason. The result says what the client gets:
forwarded to the backends, or the status Envoy answers with (404 no virtual
host or route, 500 for a rule whose backends are invalid, 503 without
endpoints, 421 misdirected, a redirect) and why, naming the object whose
status explains it. What the model does not decide on the request's way (an
authorization server's answer, rate limits, JWT verification, IP filters,
retries) is listed under "not modelled".

REQUEST is an HTTP request line, "GET https://shop.example.com/api?x=1" (one
argument, or the method and URL as two; the method defaults to GET), with
headers from -H. With --grpc, REQUEST is the server, "host[:port]" (plain
HTTP/2, port 80) or an http:// or https:// URL, and --grpc the method. With
--sni and no REQUEST, the request is a TLS connection alone, to --port.

A request that cannot be parsed exits 2 with one line saying why. The input
is read as translate reads it; documents that cannot be decoded are reported
and skipped (exit 3, after the explanation).`

const explainExample = `  sesame explain -f testdata/examples/explain.yaml 'GET https://shop.example.com/api/v1/items?x=1'
  sesame explain -f manifests/ -R 'GET https://shop.example.com/api/v1?x=1' -H 'x-env: canary' -o json
  sesame explain -f manifests/ --grpc echo.Echo/Say grpc.example.com:80
  sesame explain -f manifests/ --sni db.example.com --port 443`

// explainOptions are the flags of sesame explain.
type explainOptions struct {
	translateOptions
	headers []string
	grpc    string
	sni     string
	port    int
	format  string
	gw      string
}

func newExplainCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := new(explainOptions)
	cmd := &cobra.Command{
		Use:     "explain -f PATH [flags] REQUEST",
		Short:   "Explain which object serves a request, and why the others do not",
		Long:    explainLong,
		Example: explainExample,
		Args:    cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Flags(), args, stdin, stdout, stderr)
		},
	}
	fs := cmd.Flags()
	o.addInputFlags(fs)
	fs.StringArrayVarP(&o.headers, "header", "H", nil, "a request header, `'Name: value'`, as curl's -H (repeatable)")
	fs.StringVar(&o.grpc, "grpc", "", "explain a gRPC call of `package.Service/Method`; REQUEST is the server")
	fs.StringVar(&o.sni, "sni", "", "the TLS server `name` (default: the URL's host); alone, a TLS connection")
	fs.IntVar(&o.port, "port", 443, "the `port` of a TLS connection given by --sni alone")
	fs.StringVarP(&o.format, "output", "o", "text", "output `format`: text or json")
	fs.StringVar(&o.gw, "gateway", "", "the Gateway `NAMESPACE/NAME` whose Envoy gets the request, when several\nlisten on its port")
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// request builds the request the arguments and flags describe; every
// error is a usage error.
func (o *explainOptions) request(fs *pflag.FlagSet, args []string) (explain.Request, error) {
	var req explain.Request
	var err error
	switch {
	case o.grpc != "":
		if len(args) != 1 {
			return req, fmt.Errorf("--grpc: give the server as REQUEST, e.g. grpc.example.com:80")
		}
		req, err = explain.ParseGRPC(args[0], o.grpc, o.headers)
	case len(args) == 0 && o.sni != "":
		if len(o.headers) > 0 {
			return req, fmt.Errorf("-H: a TLS connection alone sends no headers; give a request line")
		}
		req, err = explain.TLSConnection(o.sni, o.port)
	case len(args) == 0:
		return req, fmt.Errorf("no request: give one, e.g. \"GET https://shop.example.com/\"")
	default:
		if fs.Changed("port") {
			return req, fmt.Errorf("--port: give the port in the URL")
		}
		req, err = explain.ParseRequest(strings.Join(args, " "), o.headers)
	}
	if err != nil {
		return req, err
	}
	if o.sni != "" && req.Method != "" {
		if req.Scheme != "https" {
			return req, fmt.Errorf("--sni %s: the URL is http, which sends no server name", o.sni)
		}
		req.ServerName = o.sni
	}
	if o.gw != "" {
		gw, err := namespacedName("gateway", o.gw)
		if err != nil {
			return req, err
		}
		req.Gateway = gw.String()
	}
	return req, nil
}

func (o *explainOptions) run(fs *pflag.FlagSet, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	opts, err := o.options()
	if err != nil {
		return err
	}
	if o.format != "text" && o.format != "json" {
		return usageErrorf("--output %q: want text or json", o.format)
	}
	req, err := o.request(fs, args)
	if err != nil {
		return badRequest(stderr, err)
	}
	in, err := load(o.filenames, o.recursive, stdin, o.decoder())
	if err != nil {
		return failure(err)
	}
	for _, w := range in.warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	for _, e := range in.skipped {
		fmt.Fprintf(stderr, "error: %s\n", e)
	}
	res, err := sesame.Translate(in.objects, opts)
	if err != nil {
		return failure(err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	// With the objects, explain lists only the refused routes whose
	// hostnames could take the request.
	e, err := explain.Explain(explain.Input{XDS: res.XDS, Status: res.Status, Objects: in.objects}, req)
	if err != nil {
		return badRequest(stderr, err)
	}
	if o.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(e)
	} else {
		err = e.WriteText(stdout)
	}
	if err != nil {
		return failure(err)
	}
	if len(in.skipped) > 0 {
		return &exitError{code: exitSkipped}
	}
	return nil
}

// badRequest ends the command on a request it cannot explain: one line
// that says why, exit code 2, without the pointer to the usage that a bad
// flag gets (the request is not a flag).
func badRequest(stderr io.Writer, err error) error {
	fmt.Fprintf(stderr, "sesame explain: %v\n", err)
	return &exitError{code: exitUsage}
}
