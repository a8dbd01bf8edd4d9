package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/xdsserver"
)

const serveLong = `Translates Kubernetes objects as translate does and serves the Envoy
resources over ADS (gRPC; State of the World and Delta) on --xds-address,
then watches the files and directories of -f and translates them again
when they change, printing on stdout what changed: the Envoy resources
added (+), changed (~) and removed (-), and the objects whose status
changed.

Each served Gateway's resources go to the Envoy nodes whose id is
gateway/NAMESPACE/NAME, the id the bootstrap of the Gateway's managed
fleet gives (sesame provision). Proxyless gRPC clients (gRPC's own xDS
client, google.golang.org/grpc/xds) whose node id is --grpc-node get
every virtual host's hostname as a target to dial, xds:///HOSTNAME. Any
other node gets every listener, HTTPProxies' and Ingresses' included,
unless --node-fallback=false: then it gets nothing, and the log says
which id it gave.

A change that cannot be read (a file gone, a document that cannot be
decoded) or translated keeps the last good configuration served and says
why on stderr; nothing is ever served of a partial input. At the start, the
same exits as translate's: 1 when a path cannot be read, 3 when documents
were skipped, and nothing is served. Versions come from content: an edit
that changes nothing Envoy sees sends Envoy nothing.

SIGINT or SIGTERM stops it: the xDS streams are ended and the server
stops, exit code 0. Its log (text, log/slog) goes to stderr; -v adds each
stream and request.`

const serveExample = `  sesame serve -f testdata/examples/quickstart.yaml
  sesame serve -f manifests/ -R --xds-address 0.0.0.0:18000`

// serveOptions are the flags of sesame serve.
type serveOptions struct {
	translateOptions
	address      string
	debounce     time.Duration
	nodeFallback bool
	grpcNode     string
	verbose      bool
}

func newServeCmd(stdout, stderr io.Writer) *cobra.Command {
	o := new(serveOptions)
	cmd := &cobra.Command{
		Use:     "serve -f PATH [-f PATH ...] [flags]",
		Short:   "Serve the Envoy resources of Kubernetes objects over xDS, translated again as they change",
		Long:    serveLong,
		Example: serveExample,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unexpected argument %q (use -f PATH)", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context(), stdout, stderr)
		},
	}
	fs := cmd.Flags()
	o.addInputFlags(fs)
	fs.StringVar(&o.address, "xds-address", "127.0.0.1:18000", "the `HOST:PORT` to serve xDS on (port 0: any free port, logged)")
	fs.DurationVar(&o.debounce, "debounce", 300*time.Millisecond, "how long the inputs must be quiet after a change before they are read again")
	fs.BoolVar(&o.nodeFallback, "node-fallback", true, "serve every listener to nodes whose id names no served Gateway")
	fs.StringVar(&o.grpcNode, "grpc-node", "grpc", "the node `id` of proxyless gRPC clients, which get each virtual host as an\nAPI listener named by its hostname (\"\": none)")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "log every stream and request")
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	return cmd
}

func (o *serveOptions) run(ctx context.Context, stdout, stderr io.Writer) error {
	opts, err := o.options()
	if err != nil {
		return err
	}
	if slices.Contains(o.filenames, "-") {
		return usageErrorf("-f -: serve watches its inputs, and standard input cannot be watched; give files or directories")
	}
	if o.debounce <= 0 {
		return usageErrorf("--debounce %v: not a duration above zero", o.debounce)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	level := slog.LevelInfo
	if o.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	var fallback string
	if o.nodeFallback {
		fallback = xdsserver.AllGroup
	}
	s := &serving{o: o, tr: sesame.NewTranslator(opts), srv: xdsserver.New(xdsserver.Options{Logger: logger, Fallback: fallback}),
		stdout: stdout, stderr: stderr, held: map[sesame.ObjectKey]bool{}}
	if err := s.translate(ctx, true); err != nil {
		return err
	}
	w, err := newWatcher(o.filenames, o.recursive)
	if err != nil {
		return failure(fmt.Errorf("watching the inputs: %w", err))
	}
	lis, err := net.Listen("tcp", o.address)
	if err != nil {
		w.w.Close()
		return failure(fmt.Errorf("--xds-address %s: %w", o.address, err))
	}
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		w.run(ctx, o.debounce, func() { _ = s.translate(ctx, false) }, func(err error) {
			logger.Warn("watching the inputs", "error", err)
		})
	}()
	err = s.srv.Serve(ctx, lis)
	stop() // the watcher too, when Serve failed
	<-watched
	if err != nil {
		return failure(err)
	}
	return nil
}

// serving is what serve keeps between translations.
type serving struct {
	o              *serveOptions
	tr             *sesame.Translator
	srv            *xdsserver.Server
	stdout, stderr io.Writer
	held           map[sesame.ObjectKey]bool // the objects the Translator holds
	warnings       map[string]bool           // printed at the last translation
	good           time.Time                 // when the configuration served was read
	grpc           xdsserver.GRPCBridge      // the group of gRPC clients, when served
}

// translate reads the inputs and serves their translation. The first
// time, what cannot be read or translated ends the command as translate
// ends; after, it is said on stderr and the last good configuration stays
// served.
func (s *serving) translate(ctx context.Context, first bool) error {
	keep := func(err error) error {
		if first {
			return err
		}
		fmt.Fprintf(s.stderr, "error: %v: still serving the configuration read at %s\n", exitCause(err), s.good.Format(time.TimeOnly))
		return nil
	}
	in, err := load(s.o.filenames, s.o.recursive, nil, s.o.decoder())
	if err != nil {
		return keep(failure(err))
	}
	for _, e := range in.skipped {
		fmt.Fprintf(s.stderr, "error: %s\n", e)
	}
	if len(in.skipped) > 0 {
		return keep(&exitError{exitSkipped, fmt.Errorf("%s could not be decoded: nothing of this input is served",
			count(len(in.skipped), "document"))})
	}
	keys := make(map[sesame.ObjectKey]bool, len(in.objects))
	for _, obj := range in.objects {
		if key, err := sesame.KeyOf(obj); err == nil {
			keys[key] = true
		}
	}
	var deleted []sesame.ObjectKey
	for key := range s.held {
		if !keys[key] {
			deleted = append(deleted, key)
		}
	}
	res, delta, err := s.tr.UpdateContext(ctx, in.objects, deleted)
	if err != nil {
		return keep(failure(err))
	}
	s.held = keys
	groups := xdsserver.GroupsOf(res)
	if s.o.grpcNode != "" {
		groups[s.o.grpcNode] = s.grpc.ForGRPC(res.XDS, xdsserver.Authorities(res.XDS))
	}
	if err := s.srv.Set(ctx, groups); err != nil {
		return keep(failure(err))
	}
	s.good = time.Now()
	warnings := map[string]bool{}
	for _, w := range append(in.warnings, res.Warnings...) {
		warnings[w] = true
		if !s.warnings[w] {
			fmt.Fprintf(s.stderr, "warning: %s\n", w)
		}
	}
	s.warnings = warnings
	if first {
		fmt.Fprintln(s.stdout, "serving: "+strings.TrimPrefix(summary(len(in.objects), 0, res, len(warnings)), "sesame translate: "))
	} else {
		fmt.Fprintln(s.stdout, describe(delta))
	}
	return nil
}

// exitCause is the error an exitError carries.
func exitCause(err error) error {
	if e, ok := err.(*exitError); ok && e.err != nil {
		return e.err
	}
	return err
}

// describe says what a delta changed, in one line: "changed: clusters
// +service/shop/web-v2/80 -service/shop/web/80; status of HTTPRoute
// shop/web".
func describe(d *sesame.Delta) string {
	if d.Empty() {
		return "unchanged: nothing Envoy or the API server sees"
	}
	var parts []string
	for _, t := range []struct {
		name string
		d    sesame.ResourceDelta
	}{{"listeners", d.Listeners}, {"routes", d.Routes}, {"clusters", d.Clusters}, {"endpoints", d.Endpoints}, {"secrets", d.Secrets}} {
		if t.d.Empty() {
			continue
		}
		var names []string
		for _, set := range []struct {
			mark  string
			names []string
		}{{"+", t.d.Added}, {"~", t.d.Changed}, {"-", t.d.Removed}} {
			for _, n := range set.names {
				names = append(names, set.mark+n)
			}
		}
		parts = append(parts, t.name+" "+shortList(names))
	}
	if len(d.Status) > 0 || len(d.StatusRemoved) > 0 {
		objects := map[string]bool{}
		for _, s := range d.Status {
			objects[objectName(s.Kind, s.Namespace, s.Name)] = true
		}
		for _, k := range d.StatusRemoved {
			objects["-"+objectName(k.Kind, k.Namespace, k.Name)] = true
		}
		parts = append(parts, "status of "+shortList(slices.Sorted(maps.Keys(objects))))
	}
	return "changed: " + strings.Join(parts, "; ")
}

// objectName is "Kind namespace/name", or "Kind name" for a cluster-scoped
// object.
func objectName(kind, namespace, name string) string {
	if namespace == "" {
		return kind + " " + name
	}
	return kind + " " + namespace + "/" + name
}

// shortList joins names, at most ten of them and how many more.
func shortList(names []string) string {
	if len(names) <= 10 {
		return strings.Join(names, " ")
	}
	return strings.Join(names[:10], " ") + fmt.Sprintf(" and %d more", len(names)-10)
}
