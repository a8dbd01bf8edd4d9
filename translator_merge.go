package sesame

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen"
)

// merge carries what two translations of a scope disagree on over to the
// last Result (see translator_routes.go); each step returns false when it
// cannot be sure, and then nothing of the Translator has changed.
type merge struct {
	t             *Translator
	before, after *Result
	inScope       keySet                        // the routes of the scope
	closed        keySet                        // those whose every hostname's routes are in it
	incomplete    bool                          // a route's status changed that is not closed over
	stubbed       bool                          // a cluster it needs is a stub in before or after (translate)
	changed       keySet                        // the routes changed
	named         map[types.NamespacedName]bool // the Services the changed routes name, or named, and moved
	moved         map[types.NamespacedName]bool // the Services changed, or whose EndpointSlices changed
	hostnames     []gatewayv1.Hostname          // theirs, as they were and are
	next          Result
	xds           *xdsgen.Resources
	delta         Delta
	// what the Translator takes on when every step succeeded
	digests        [resourceTypes]map[string]sum // but for clusters and load assignments: clusterSums
	clusterSums    map[string]clusterSums        // what commit changes of those
	pieces         map[string][]sum
	status         map[ObjectKey]statusChange
	services       map[types.NamespacedName]bool // Services now unused (true) or used again (false)
	endpointSlices map[types.NamespacedName]bool // EndpointSlices likewise
	unused         *graph.Unused                 // what nothing refers to now, when that changed
	clusters       []*graph.Cluster              // the last's, with those added and without those removed
	added, removed []*graph.Cluster
	parts          map[types.NamespacedName]*gatewayPart // of each Gateway, when several are served
}

// statusChange is the new status of an object, or the last one it had,
// removed.
type statusChange struct {
	upd     graph.StatusUpdate
	removed bool
}

// run merges, or says it cannot.
func (m *merge) run() bool {
	t := m.t
	m.next = *t.last
	xds := *t.last.XDS
	m.xds = &xds
	m.next.XDS = m.xds
	m.digests = t.digests
	return m.sameOutside() && m.secrets() && m.warnings() && m.statuses() && m.routes() && m.clustersAndEndpoints() &&
		m.gatewayParts()
}

// sameOutside checks that the two translations agree on what the merge
// does not carry over: listeners, events, repairs; and that neither has a
// listener refuse a route for one of the other kind (updateRoutes).
func (m *merge) sameOutside() bool {
	b, a := m.before, m.after
	return len(b.Repairs) == 0 && len(a.Repairs) == 0 && b.graph.KindConflicts == 0 && a.graph.KindConflicts == 0 &&
		sameMessages(b.XDS.Listeners, a.XDS.Listeners) && reflect.DeepEqual(b.Events, a.Events)
}

// secrets carries over the Envoy secrets of the Kubernetes Secrets changed
// (a certificate renewed), which listeners name and do not hold, when
// both translations have them; any other difference gives up.
func (m *merge) secrets() bool {
	b, a := m.before.XDS.Secrets, m.after.XDS.Secrets
	if len(b) != len(a) {
		return false
	}
	for i := range a {
		if a[i].GetName() != b[i].GetName() {
			return false
		}
		if proto.Equal(a[i], b[i]) {
			continue
		}
		name := a[i].GetName()
		ns, n, _ := strings.Cut(strings.TrimPrefix(name, "secret/"), "/")
		at := slices.IndexFunc(m.xds.Secrets, func(s *tlsv3.Secret) bool { return s.GetName() == name })
		if !m.changed[ObjectKey{Kind: "Secret", Namespace: ns, Name: n}] || at < 0 {
			return false
		}
		if m.delta.Secrets.Changed == nil {
			m.xds.Secrets, m.digests[4] = slices.Clone(m.xds.Secrets), maps.Clone(m.digests[4])
		}
		m.xds.Secrets[at], m.digests[4][name] = a[i], digestOf(a[i])
		m.delta.Secrets.Changed = append(m.delta.Secrets.Changed, name)
	}
	slices.Sort(m.delta.Secrets.Changed)
	return true
}

func sameMessages[T proto.Message](a, b []T) bool {
	return slices.EqualFunc(a, b, func(x, y T) bool { return proto.Equal(x, y) })
}

// warnings carries over which Services became used, or unused, and which
// EndpointSlices' Services came or went; any other difference in warnings
// gives up.
func (m *merge) warnings() bool {
	b, a := m.before, m.after
	nb, na := dag.UnusedWarningCount(b.graph.Unused), dag.UnusedWarningCount(a.graph.Unused)
	if nb > len(b.Warnings) || na > len(a.Warnings) || !slices.Equal(b.Warnings[:len(b.Warnings)-nb], a.Warnings[:len(a.Warnings)-na]) {
		return false
	}
	ub, ua := b.graph.Unused, a.graph.Unused
	if !slices.Equal(ub.Secrets, ua.Secrets) || !slices.Equal(ub.ConfigMaps, ua.ConfigMaps) ||
		!slices.Equal(ub.Namespaces, ua.Namespaces) || !slices.Equal(ub.ReferenceGrants, ua.ReferenceGrants) {
		return false
	}
	if slices.Equal(ub.Services, ua.Services) && slices.Equal(ub.EndpointSlices, ua.EndpointSlices) {
		return true
	}
	// A Service unused now in the scope is unused in the whole input,
	// unless a route out of scope names it. An EndpointSlice is unused
	// when its Service is not in the input, which the scope tells as the
	// whole input would.
	services := diffNames(ub.Services, ua.Services)
	for s, unused := range services {
		if !unused {
			continue
		}
		for _, key := range m.t.routes.naming[s] {
			if !m.inScope[key] {
				return false
			}
		}
	}
	endpointSlices := diffNames(ub.EndpointSlices, ua.EndpointSlices)
	unused := m.t.unusedSets
	unused.Services = dag.EditUnused(unused.Services, services)
	unused.EndpointSlices = dag.EditUnused(unused.EndpointSlices, endpointSlices)
	m.next.Warnings = append(append([]string(nil), m.t.last.Warnings[:m.t.otherWarnings]...), dag.UnusedWarnings(unused)...)
	m.unused, m.services, m.endpointSlices = &unused, services, endpointSlices
	return true
}

// diffNames says which names are in a and not in b (true), or in b and
// not in a (false).
func diffNames(b, a []types.NamespacedName) map[types.NamespacedName]bool {
	out := map[types.NamespacedName]bool{}
	for _, n := range a {
		if !slices.Contains(b, n) {
			out[n] = true
		}
	}
	for _, n := range b {
		if !slices.Contains(a, n) {
			out[n] = false
		}
	}
	return out
}

// routes carries over the virtual hosts the two translations disagree
// on into the last route configurations.
func (m *merge) routes() bool {
	b, a := m.before.XDS.Routes, m.after.XDS.Routes
	if len(b) != len(a) {
		return false
	}
	for i := range a {
		if a[i].GetName() != b[i].GetName() || !proto.Equal(xdsmsg.Without(a[i], "virtual_hosts"), xdsmsg.Without(b[i], "virtual_hosts")) {
			return false
		}
		if ok := m.routeConfiguration(b[i], a[i]); !ok {
			return false
		}
	}
	return true
}

// routeConfiguration merges the changes from b to a, two versions of one
// route configuration in the scope, into the last's. A virtual host a
// changed route may join, in both, is compared with the last's by digest
// (the last's is kept, t.pieces): a changed one is digested anyway, and
// proto.Equal of two took a quarter of a merge.
func (m *merge) routeConfiguration(b, a *routev3.RouteConfiguration) bool {
	vb, ok1 := vhostsByName(b.VirtualHosts)
	va, ok2 := vhostsByName(a.VirtualHosts)
	if !ok1 || !ok2 {
		return false
	}
	type change struct {
		vh     *routev3.VirtualHost // nil: removed
		before bool                 // in b: it must be in the last, and not otherwise
	}
	changes := map[string]change{}
	var digested []*routev3.VirtualHost // the changed and those a changed route may join, digested together, on every processor
	for name, vh := range va {
		if _, ok := vb[name]; !ok {
			changes[name] = change{vh, false}
			digested = append(digested, vh)
		} else if m.mayJoin(vhostHostname(name)) {
			digested = append(digested, vh)
		}
	}
	for name := range vb {
		if _, ok := va[name]; !ok {
			changes[name] = change{nil, true}
		}
	}
	if len(digested) == 0 && len(changes) == 0 {
		return true
	}
	name := a.GetName()
	at := slices.IndexFunc(m.xds.Routes, func(rc *routev3.RouteConfiguration) bool { return rc.GetName() == name })
	if at < 0 {
		return false
	}
	last := m.xds.Routes[at]
	pieces := m.t.pieces[name]
	if len(pieces) != len(last.VirtualHosts)+1 {
		return false
	}
	sumOf := make(map[*routev3.VirtualHost]sum, len(digested))
	made, _ := xdsmsg.DigestVirtualHosts(digested) // valid messages marshal
	for i, s := range made {
		vh := digested[i]
		sumOf[vh] = s
		if _, ok := changes[vh.GetName()]; ok {
			continue
		}
		j, found := slices.BinarySearchFunc(last.VirtualHosts, vh.GetName(), func(x *routev3.VirtualHost, v string) int {
			return compareVhosts(name, x.GetName(), v)
		})
		switch {
		case !found || last.VirtualHosts[j].GetName() != vh.GetName():
			return false // in both translations of the scope, but not in the last
		case pieces[j+1] != s:
			changes[vh.GetName()] = change{vh, true}
		}
	}
	if len(changes) == 0 {
		return true
	}
	vhosts := make([]*routev3.VirtualHost, 0, len(last.VirtualHosts)+len(changes))
	sums := append(make([]sum, 0, len(pieces)+len(changes)), pieces[0])
	found := 0
	for i, vh := range last.VirtualHosts {
		c, ok := changes[vh.GetName()]
		switch {
		case !ok:
			vhosts, sums = append(vhosts, vh), append(sums, pieces[i+1])
			continue
		case !c.before:
			return false // new in the scope, but the last had it
		case c.vh != nil:
			vhosts, sums = append(vhosts, c.vh), append(sums, sumOf[c.vh])
		}
		found++
	}
	for vname, c := range changes {
		if c.before {
			continue
		}
		i, _ := slices.BinarySearchFunc(vhosts, vname, func(x *routev3.VirtualHost, v string) int {
			return compareVhosts(name, x.GetName(), v)
		})
		vhosts, sums = slices.Insert(vhosts, i, c.vh), slices.Insert(sums, i+1, sumOf[c.vh])
		found++
	}
	if found != len(changes) {
		return false // changed or removed in the scope, but the last had not it
	}
	rc := xdsmsg.Without(last, "virtual_hosts").(*routev3.RouteConfiguration)
	rc.VirtualHosts = vhosts
	if m.pieces == nil {
		m.pieces = map[string][]sum{}
		m.xds.Routes = slices.Clone(m.xds.Routes)
		m.digests[1] = maps.Clone(m.digests[1])
	}
	m.xds.Routes[at], m.pieces[name] = rc, sums
	m.digests[1][name] = xdsmsg.Combine(sums)
	m.delta.Routes.Changed = append(m.delta.Routes.Changed, name)
	return true
}

// mayJoin says a changed route may join, or have joined, the virtual
// host of hostname: one of its hostnames covers it (a listener's hostname
// only narrows them). The others are alike in both translations. A
// changed route has hostnames, so it never joins "*".
func (m *merge) mayJoin(hostname string) bool {
	if hostname == "" {
		return false
	}
	for _, h := range m.hostnames {
		if r, ok := relate(gatewayv1.Hostname(hostname), h); !ok || contained(r) {
			return true // unreadable ones may join anything
		}
	}
	return false
}

// vhostsByName maps virtual hosts by name; false when two share one.
func vhostsByName(vhosts []*routev3.VirtualHost) (map[string]*routev3.VirtualHost, bool) {
	out := make(map[string]*routev3.VirtualHost, len(vhosts))
	for _, vh := range vhosts {
		if _, dup := out[vh.GetName()]; dup {
			return nil, false
		}
		out[vh.GetName()] = vh
	}
	return out, true
}

// compareVhosts orders two virtual hosts, by name, as route configuration
// rc orders them: by hostname, most specific first (hostmatch.Compare);
// the route table of an HTTPS listener ("gateway/<namespace>/<gateway>/
// <port>/<listener>", a ListenerSet's listener name holding slashes) has
// its own listener's first, then those that answer 421 for its siblings'
// hostnames.
func compareVhosts(rc, a, b string) int {
	if parts := strings.SplitN(rc, "/", 5); len(parts) == 5 {
		own := func(vh string) int { // "<namespace>/<gateway>/<listener>/<hostname>"
			if p := strings.SplitN(vh[:max(strings.LastIndexByte(vh, '/'), 0)], "/", 3); len(p) == 3 && p[2] == parts[4] {
				return 0
			}
			return 1
		}
		if c := own(a) - own(b); c != 0 {
			return c
		}
	}
	return hostmatch.Compare(vhostHostname(a), vhostHostname(b))
}

// vhostHostname is the hostname a Gateway virtual host's name ends with
// ("" for "*"), by which a route configuration orders them.
func vhostHostname(name string) string {
	host := name[strings.LastIndexByte(name, '/')+1:]
	if host == "*" {
		return ""
	}
	return host
}
