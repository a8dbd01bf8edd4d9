package xdsserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/projectsesame/sesame/internal/xdsmsg"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoverygrpc "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	serverv3 "github.com/envoyproxy/go-control-plane/pkg/server/v3"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// Options configure a Server.
type Options struct {
	// Logger receives the server's events; nil discards them.
	Logger *slog.Logger
	// Fallback is the group of nodes whose id names no group ("" for
	// none: such a node waits, and is logged once).
	Fallback string
	// StopTimeout bounds a graceful stop, after which open streams are cut
	// (default 5 seconds).
	StopTimeout time.Duration
	// GRPCOptions are given to the gRPC server (credentials, keepalive,
	// message sizes).
	GRPCOptions []grpc.ServerOption
}

// Server serves node groups' Envoy resources over ADS. Its methods may be
// called from any goroutine.
type Server struct {
	opts  Options
	log   *slog.Logger
	cache cachev3.SnapshotCache

	mu       sync.Mutex // guards what follows, and makes Sets one at a time
	groups   map[string]*cachev3.Snapshot
	served   map[string]*served // by group: what the last Set made
	digests  digester
	unknown  map[string]bool // node ids logged as naming no group
	fallback bool            // Fallback is a group now
}

// New makes a Server that serves nothing until Set.
func New(opts Options) *Server {
	if opts.StopTimeout <= 0 {
		opts.StopTimeout = 5 * time.Second
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{opts: opts, log: logger, groups: map[string]*cachev3.Snapshot{}, unknown: map[string]bool{}, digests: digester{
		sums: map[proto.Message]string{}, pieces: map[*routev3.VirtualHost]xdsmsg.Sum{},
		fresh: map[proto.Message]string{}, freshPieces: map[*routev3.VirtualHost]xdsmsg.Sum{},
	}}
	// Not in ADS mode: that mode answers a request only when it names every
	// resource of its type in the snapshot, as Envoy's wildcard requests do;
	// gRPC's xDS clients name only those they use. Each snapshot is
	// consistent, so answering each request alone is safe.
	s.cache = cachev3.NewSnapshotCache(false, nodeGroups{s}, cacheLogger{logger})
	return s
}

// Set makes groups what the server serves: each group's resources to the
// nodes of that id, a group absent from groups no longer served (its
// nodes keep what they have, as Envoy keeps its configuration when its
// control plane has nothing for it). It fails, serving what it served,
// when a group's resources are not a consistent snapshot.
func (s *Server) Set(ctx context.Context, groups Groups) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := make(map[string]*served, len(groups))
	if err := s.snapshots(groups, next); err != nil {
		s.digests.keep(false, s.served)
		return err
	}
	s.digests.keep(true, next)
	for _, name := range slices.Sorted(maps.Keys(next)) {
		snap := next[name].snap
		if old, ok := s.groups[name]; ok && sameVersions(old, snap) {
			continue // the same configuration: nothing to send
		}
		if err := s.cache.SetSnapshot(ctx, name, snap); err != nil {
			return fmt.Errorf("xdsserver: group %q: %w", name, err)
		}
		s.groups[name] = snap
		s.log.Info("serving", "group", name, versionsAttr(snap))
	}
	for _, name := range slices.Sorted(maps.Keys(s.groups)) {
		if _, ok := next[name]; !ok {
			s.cache.ClearSnapshot(name)
			delete(s.groups, name)
			s.log.Info("group no longer served", "group", name)
		}
	}
	s.served = next
	_, s.fallback = s.groups[s.opts.Fallback]
	return nil
}

// snapshots makes the snapshot of each of groups into next, from the last
// Set's of the same group.
func (s *Server) snapshots(groups Groups, next map[string]*served) error {
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		res := groups[name]
		if res == nil {
			return fmt.Errorf("xdsserver: group %q: no resources", name)
		}
		made, err := s.digests.snapshot(res, s.served[name])
		if err != nil {
			return fmt.Errorf("xdsserver: group %q: %w", name, err)
		}
		next[name] = made
	}
	return nil
}

// Versions are the type versions group is served at, by type URL; nil
// when the group is not served.
func (s *Server) Versions(group string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap, ok := s.groups[group]
	if !ok {
		return nil
	}
	return versionsOf(snap)
}

// resourceTypes are the types a group holds, by their names in the log.
var resourceTypes = [...]struct{ name, url string }{
	{"listeners", resourcev3.ListenerType}, {"routes", resourcev3.RouteType}, {"clusters", resourcev3.ClusterType},
	{"endpoints", resourcev3.EndpointType}, {"secrets", resourcev3.SecretType},
}

func versionsOf(snap *cachev3.Snapshot) map[string]string {
	out := make(map[string]string, len(resourceTypes))
	for _, t := range resourceTypes {
		out[t.url] = snap.GetVersion(t.url)
	}
	return out
}

// versionsAttr are a snapshot's versions, each type by its short name,
// for the log.
func versionsAttr(snap *cachev3.Snapshot) slog.Attr {
	attrs := make([]any, 0, len(resourceTypes))
	for _, t := range resourceTypes {
		attrs = append(attrs, slog.String(t.name, snap.GetVersion(t.url)))
	}
	return slog.Group("versions", attrs...)
}

func sameVersions(a, b *cachev3.Snapshot) bool {
	for _, t := range resourceTypes {
		if a.GetVersion(t.url) != b.GetVersion(t.url) {
			return false
		}
	}
	return true
}

// nodeGroups is the cache's NodeHash: a node's group is its id when that
// names a group, else the fallback when there is one.
type nodeGroups struct{ s *Server }

func (g nodeGroups) ID(node *corev3.Node) string {
	id := node.GetId()
	s := g.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.groups[id]; ok {
		return id
	}
	if s.fallback {
		return s.opts.Fallback
	}
	if !s.unknown[id] {
		s.unknown[id] = true
		s.log.Warn("a node names no group: it waits for one of its id", "node", id, "groups", slices.Sorted(maps.Keys(s.groups)))
	}
	return id
}

// Serve serves ADS, State of the World and Delta, on lis until ctx ends
// or the listener fails; then it ends the streams, stops the gRPC server
// gracefully (at once after Options.StopTimeout) and returns. It returns
// nil after a stop ctx asked for.
func (s *Server) Serve(ctx context.Context, lis net.Listener) error {
	streams, endStreams := context.WithCancel(context.WithoutCancel(ctx))
	defer endStreams()
	xds := serverv3.NewServer(streams, s.cache, s.callbacks())
	g := grpc.NewServer(s.opts.GRPCOptions...)
	discoverygrpc.RegisterAggregatedDiscoveryServiceServer(g, xds)
	served := make(chan error, 1)
	go func() { served <- g.Serve(lis) }()
	s.log.Info("serving xDS", "address", lis.Addr().String())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	endStreams()
	stopped := make(chan struct{})
	go func() {
		g.GracefulStop()
		close(stopped)
	}()
	timer := time.NewTimer(s.opts.StopTimeout)
	defer timer.Stop()
	select {
	case <-stopped:
	case <-timer.C:
		s.log.Warn("streams still open after the stop timeout: cut", "timeout", s.opts.StopTimeout)
		g.Stop()
		<-stopped
	}
	if err := <-served; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return err
	}
	s.log.Info("xDS stopped")
	return nil
}
