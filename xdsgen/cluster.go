package xdsgen

import (
	"errors"
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// clusterBuilder makes the Clusters of one Generate. Every cluster takes
// its endpoints over ADS and its upstream protocol from one of two
// option sets, so these messages, the same for every cluster, are built
// once and shared, read-only, by all clusters: with many Services, clusters
// are among the most numerous messages.
type clusterBuilder struct {
	eds          *clusterv3.Cluster_Type
	ads          *corev3.ConfigSource
	http1, http2 map[string]*anypb.Any // TypedExtensionProtocolOptions
}

func newClusterBuilder() *clusterBuilder {
	return &clusterBuilder{
		eds:   &clusterv3.Cluster_Type{Type: clusterv3.Cluster_EDS},
		ads:   xdsmsg.ADSConfigSource(),
		http1: protocolOptions(false, nil),
		http2: protocolOptions(true, nil),
	}
}

// clusters builds the Envoy Cluster of each Service port, in order. A
// cluster's endpoints come over EDS, in the ClusterLoadAssignment of the
// same name, so that endpoint changes do not rebuild the cluster. Like
// loadAssignments, it allocates the messages of all clusters together.
func (cb *clusterBuilder) clusters(cs []*graph.Cluster, names clusterNames) []*clusterv3.Cluster {
	n := len(cs)
	out := make([]*clusterv3.Cluster, n)
	clusters := make([]clusterv3.Cluster, n)
	eds := make([]clusterv3.Cluster_EdsClusterConfig, n)
	for i, c := range cs {
		name := names.of(c)
		// The protocol to the endpoints is explicit (package protocol
		// decided it): HTTP/2 for h2c and h2, HTTP/1.1 otherwise. A
		// cluster a TLSRoute forwards a stream to ignores it.
		options := cb.http1
		if http2(c.Protocol) {
			options = cb.http2
		}
		eds[i].EdsConfig, eds[i].ServiceName = cb.ads, name
		cl := &clusters[i]
		cl.Name, cl.ClusterDiscoveryType, cl.EdsClusterConfig = name, cb.eds, &eds[i]
		cl.TypedExtensionProtocolOptions = options
		cl.TransportSocket = upstreamTLS(c)
		if c.Policy != nil {
			applyClusterPolicy(cl, c)
		}
		out[i] = cl
	}
	return out
}

// validated validates clusters but not the messages they share, which
// validateShared validates once: validating the protocol options alone
// costs a sorted copy of the map's keys per cluster. A cluster is not yet
// shared when it is validated, so taking them off and back is safe.
func (cb *clusterBuilder) validated(clusters []*clusterv3.Cluster) []error {
	var errs []error
	for _, cl := range clusters {
		options, eds := cl.TypedExtensionProtocolOptions, cl.EdsClusterConfig
		if sameMap(options, cb.http1) || sameMap(options, cb.http2) {
			cl.TypedExtensionProtocolOptions = nil // validated once, by validateShared
		}
		var source *corev3.ConfigSource
		if eds != nil {
			source, eds.EdsConfig = eds.EdsConfig, nil
		}
		err := cl.ValidateAll()
		cl.TypedExtensionProtocolOptions = options
		if eds != nil {
			eds.EdsConfig = source
		}
		if err != nil {
			errs = append(errs, xdsmsg.ResourceError("Cluster", cl.GetName(), err))
		}
	}
	return errs
}

// validateShared validates the messages clusters cs share, as parts of a
// cluster that has them.
func (cb *clusterBuilder) validateShared(cs []*graph.Cluster) []error {
	sets := []map[string]*anypb.Any{cb.http1}
	if slices.ContainsFunc(cs, func(c *graph.Cluster) bool { return http2(c.Protocol) }) {
		sets = append(sets, cb.http2)
	}
	var errs []error
	for _, options := range sets {
		probe := &clusterv3.Cluster{
			Name:                          "(options and EDS source every cluster shares)",
			ClusterDiscoveryType:          cb.eds,
			EdsClusterConfig:              &clusterv3.Cluster_EdsClusterConfig{EdsConfig: cb.ads},
			TypedExtensionProtocolOptions: options,
		}
		errs = xdsmsg.AppendInvalid(errs, "Cluster", probe.Name, probe)
	}
	return errs
}

// http2 reports whether a cluster speaks HTTP/2 to its endpoints.
func http2(protocol string) bool { return protocol == "h2c" || protocol == "h2" }

// addClusterJobs adds the jobs that build the clusters and load
// assignments of cs into r.Clusters and r.Endpoints, which must have room
// for them, chunk by chunk, validating each message when validate is set.
// With full, only the clusters it holds are built; the others are stubs
// that carry their names (EDS clusters, whose load assignments name them).
func addClusterJobs(work *jobs, r *Resources, cs []*graph.Cluster, names clusterNames, validate bool, full func(*graph.Cluster) bool) {
	cb := newClusterBuilder()
	for start := 0; start < len(cs); start += clusterChunk {
		part := cs[start:min(start+clusterChunk, len(cs))]
		built := part
		if full != nil {
			built = slices.DeleteFunc(slices.Clone(part), func(c *graph.Cluster) bool { return !full(c) })
		}
		work.add(func() (errs []error) {
			clusters := cb.clusters(built, names)
			placeBuilt(r.Clusters[start:start+len(part)], part, full, clusters, func(stub *clusterv3.Cluster, c *graph.Cluster) {
				// EDS, so that its load assignment's stub is referred to.
				stub.Name, stub.ClusterDiscoveryType = names.of(c), cb.eds
			})
			if validate {
				if start == 0 {
					errs = cb.validateShared(cs)
				}
				errs = append(errs, cb.validated(clusters)...)
			}
			return errs
		})
		work.add(func() []error {
			assignments := loadAssignments(built, names)
			placeBuilt(r.Endpoints[start:start+len(part)], part, full, assignments, func(stub *endpointv3.ClusterLoadAssignment, c *graph.Cluster) {
				stub.ClusterName = names.of(c)
			})
			if validate {
				return xdsmsg.Validated("ClusterLoadAssignment", assignments, (*endpointv3.ClusterLoadAssignment).GetClusterName)
			}
			return nil
		})
	}
}

// placeBuilt puts into dst the messages built for the clusters of part
// that full holds, in part's order, and a stub for each of the others,
// the stubs allocated together.
func placeBuilt[T any](dst []*T, part []*graph.Cluster, full func(*graph.Cluster) bool, built []*T, stub func(*T, *graph.Cluster)) {
	if full == nil {
		copy(dst, built)
		return
	}
	stubs := make([]T, len(part)-len(built))
	j, k := 0, 0
	for i, c := range part {
		if full(c) {
			dst[i] = built[j]
			j++
			continue
		}
		stub(&stubs[k], c)
		dst[i] = &stubs[k]
		k++
	}
}

// clusterChunk is how many clusters, or load assignments, one job builds.
const clusterChunk = 2048

// loadAssignments lists the ready endpoints of each Service port, in the
// order of clusters. A cluster with no endpoints still gets an assignment,
// empty, so that Envoy does not wait for it.
//
// The messages of all assignments are allocated together, a few slices
// instead of a dozen small objects per cluster and seven per endpoint:
// with many Services this was one of the biggest sources of garbage. The
// seven messages of an endpoint lie together (endpointParts), as they are
// built, validated and read together. The messages are never copied, only
// pointed into, as protobuf requires.
func loadAssignments(clusters []*graph.Cluster, names clusterNames) []*endpointv3.ClusterLoadAssignment {
	n, withEndpoints := 0, 0
	for _, c := range clusters {
		n += len(c.Endpoints)
		if len(c.Endpoints) > 0 {
			withEndpoints++
		}
	}
	out := make([]*endpointv3.ClusterLoadAssignment, len(clusters))
	clas := make([]endpointv3.ClusterLoadAssignment, len(clusters))
	localities := make([]endpointv3.LocalityLbEndpoints, withEndpoints)
	localityPtrs := make([]*endpointv3.LocalityLbEndpoints, withEndpoints)
	lbPtrs := make([]*endpointv3.LbEndpoint, n)
	parts := make([]endpointParts, n)
	i, l := 0, 0 // next endpoint, next locality
	for ci, c := range clusters {
		cla := &clas[ci]
		cla.ClusterName = names.of(c)
		out[ci] = cla
		if len(c.Endpoints) == 0 {
			continue
		}
		locality := &localities[l]
		locality.LbEndpoints = lbPtrs[i : i+len(c.Endpoints) : i+len(c.Endpoints)]
		localityPtrs[l] = locality
		cla.Endpoints = localityPtrs[l : l+1 : l+1]
		l++
		for j, ep := range c.Endpoints {
			p := &parts[i]
			p.port.PortValue = uint32(ep.Port)
			p.socket.Protocol, p.socket.Address, p.socket.PortSpecifier = corev3.SocketAddress_TCP, ep.Address, &p.port
			p.sock.SocketAddress = &p.socket
			p.addr.Address = &p.sock
			p.ep.Address = &p.addr
			if ep.HealthPort != 0 {
				p.ep.HealthCheckConfig = &endpointv3.Endpoint_HealthCheckConfig{PortValue: uint32(ep.HealthPort)}
			}
			p.host.Endpoint = &p.ep
			p.lb.HostIdentifier = &p.host
			locality.LbEndpoints[j] = &p.lb
			i++
		}
	}
	return out
}

// LoadAssignments returns the load assignment of each of clusters, as
// Generate makes it, and validated: for a caller that follows endpoint
// changes of a graph it keeps (sesame.Translator), without generating
// everything again.
func LoadAssignments(clusters []*graph.Cluster) ([]*endpointv3.ClusterLoadAssignment, error) {
	out := loadAssignments(clusters, newClusterNames(clusters))
	var errs []error
	for _, cla := range out {
		errs = xdsmsg.AppendInvalid(errs, "ClusterLoadAssignment", cla.GetClusterName(), cla)
	}
	return out, errors.Join(errs...)
}

// endpointParts are the messages of one endpoint of a load assignment.
type endpointParts struct {
	lb     endpointv3.LbEndpoint
	host   endpointv3.LbEndpoint_Endpoint
	ep     endpointv3.Endpoint
	addr   corev3.Address
	sock   corev3.Address_SocketAddress
	socket corev3.SocketAddress
	port   corev3.SocketAddress_PortValue
}

// rejectCluster is a static cluster without endpoints: a connection sent to
// it is closed at once.
func rejectCluster() *clusterv3.Cluster {
	return &clusterv3.Cluster{
		Name:                 RejectClusterName,
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STATIC},
		LoadAssignment:       &endpointv3.ClusterLoadAssignment{ClusterName: RejectClusterName},
	}
}
