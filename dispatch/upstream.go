// Picking the server that serves a request: round-robin over the enabled
// servers of the matched policy's upstreamSubset (seed 002, "Select a
// suitable kube-apiserver ... RoundRobin").
//
// NewUpstreams checks the servers of an UpstreamCluster and keeps their
// endpoints in spec order. A subset is turned, the first time it is seen,
// into a pool: the list of servers it selects that are not disabled, and
// an atomic counter. Pick adds one to the counter and takes the server at
// counter mod len(pool), so n picks from a pool of k servers give each
// n/k of them (rounded up or down), however many goroutines pick at once.
//
// Worked example, servers a, b (disabled: true), c and d (short for
// endpoints such as https://192.168.0.1:6443):
//
//	subset          pool    picks
//	[]              a c d   a c d a c ...   (spec order)
//	[d, b, a]       d a     d a d a ...     (the subset's order, b left out)
//	[d, a, d]       d a     d a d a ...     (a repeat is dropped, but this is
//	                                         a different subset from [d, a],
//	                                         with a counter of its own)
//	[b]             none    error: dispatch: upstream subset ["b"] has no enabled server: "b" is disabled
//	[a, x]          a       a a a ...       (a warning: "x" is not a server
//	                                         of the cluster, skipped)
//	[x]             none    error: dispatch: upstream subset ["x"] has no enabled server: "x" is not a server of the cluster; the servers are "a", "b", "c", "d"
//
// An entry that names no server is skipped, and Prepare returns a warning
// that names it: KubeGateway picks from the rest, and its users' objects
// rely on it (a subset that still names a server since removed). Nothing
// left to pick, from unknown or disabled entries, is an error.
//
// Subsets are found by a hash of their entries in a map that is replaced,
// never modified, when a pool is added, so Pick reads it without a lock and
// allocates nothing once the subset has been seen. Pools are kept for the
// life of the Upstreams, which suits the few subsets an UpstreamCluster's
// policies name; Prepare builds them ahead of the first request.

package dispatch

import (
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// Upstreams are the servers of one UpstreamCluster, ready to be picked
// from round-robin. Pick and Prepare are safe for concurrent use. An
// Upstreams is made by NewUpstreams from the servers as they are; when the
// UpstreamCluster changes, make a new one. The zero Upstreams has no
// servers, so Pick always fails.
type Upstreams struct {
	endpoints []string       // every server, in spec order
	disabled  []bool         // by server
	index     map[string]int // endpoint -> server
	seed      maphash.Seed
	all       *pool // the empty subset

	mu    sync.Mutex                        // held to add to pools
	pools atomic.Pointer[map[uint64]bucket] // by hashSubset; never modified once stored
}

// bucket holds the pools whose subsets have the same hash.
type bucket []*pool

// pool is the precomputed form of one subset.
type pool struct {
	subset    []string // the subset as given, copied: the key
	endpoints []string // the enabled servers it selects, in order
	err       error    // non-nil if endpoints is empty
	warning   string   // the entries that are not servers, skipped
	next      atomic.Uint64
}

// NewUpstreams returns the Upstreams of servers, which must each have an
// endpoint "scheme://host[:port]" with scheme http or https, different
// from every other server's. A server is disabled if Disabled is set and
// true. It returns an error naming each server that is wrong, by position;
// servers is not retained.
func NewUpstreams(servers []v1alpha1.UpstreamClusterServer) (*Upstreams, error) {
	u := &Upstreams{
		endpoints: make([]string, len(servers)),
		disabled:  make([]bool, len(servers)),
		index:     make(map[string]int, len(servers)),
		seed:      maphash.MakeSeed(),
	}
	var errs []error
	for i, s := range servers {
		if reason := checkEndpoint(s.Endpoint); reason != "" {
			errs = append(errs, fmt.Errorf("dispatch: servers[%d].endpoint: %q %s", i, s.Endpoint, reason))
		} else if j, ok := u.index[s.Endpoint]; ok {
			errs = append(errs, fmt.Errorf("dispatch: servers[%d].endpoint: %q repeats servers[%d]", i, s.Endpoint, j))
		} else {
			u.index[s.Endpoint] = i
		}
		u.endpoints[i] = s.Endpoint
		u.disabled[i] = s.Disabled != nil && *s.Disabled
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	u.all = u.newPool(nil)
	return u, nil
}

// checkEndpoint returns why e is not a server endpoint, or "".
func checkEndpoint(e string) string {
	if e == "" {
		return "is empty; a server needs an endpoint such as https://192.168.0.1:6443"
	}
	p, err := url.Parse(e)
	switch {
	case err != nil:
		return "is not a URL"
	case p.Scheme != "http" && p.Scheme != "https":
		return "is not an http or https URL; the form is scheme://host:port, such as https://192.168.0.1:6443"
	case p.Host == "":
		return "has no host; the form is scheme://host:port, such as https://192.168.0.1:6443"
	}
	return ""
}

// errNoServers is what Pick returns for the zero Upstreams.
var errNoServers = errors.New("dispatch: the cluster has no servers")

// Pick returns the endpoint of the next server of subset, an
// UpstreamSubset of a dispatch policy: the next of its servers that are
// not disabled, in turn. An empty subset means every server, in spec
// order. Pick fails, with an error that names the subset, if the subset
// names an endpoint that is not a server, or if all its servers are
// disabled. Once the subset has been seen (or Prepared), Pick allocates
// nothing and takes no lock.
func (u *Upstreams) Pick(subset []string) (endpoint string, err error) {
	p := u.pool(subset)
	if p == nil {
		return "", errNoServers
	}
	if p.err != nil {
		return "", p.err
	}
	n := p.next.Add(1) - 1
	return p.endpoints[n%uint64(len(p.endpoints))], nil
}

// Prepare precomputes subset as Pick does the first time it sees it, and
// returns the error Pick would return for it, without picking, and a
// warning when it names endpoints that are not servers of the cluster
// (Pick skips them). Call it for every policy's subset when the cluster is
// configured, so that mistakes show then.
func (u *Upstreams) Prepare(subset []string) (warning string, err error) {
	p := u.pool(subset)
	if p == nil {
		return "", errNoServers
	}
	return p.warning, p.err
}

// pool returns the pool of subset, adding it if it is new; nil for the
// zero Upstreams.
func (u *Upstreams) pool(subset []string) *pool {
	if len(subset) == 0 || u.all == nil {
		return u.all
	}
	h := u.hashSubset(subset)
	if m := u.pools.Load(); m != nil {
		for _, p := range (*m)[h] {
			if slices.Equal(p.subset, subset) {
				return p
			}
		}
	}
	return u.addPool(h, subset)
}

// hashSubset hashes the entries of subset, in order.
func (u *Upstreams) hashSubset(subset []string) uint64 {
	var h uint64
	for _, e := range subset {
		h = (h ^ maphash.String(u.seed, e)) * 0x100000001b3 // FNV's prime, to mix in the order
	}
	return h
}

// addPool adds the pool of subset, whose hash is h, unless another
// goroutine has just added it, and returns it.
func (u *Upstreams) addPool(h uint64, subset []string) *pool {
	u.mu.Lock()
	defer u.mu.Unlock()
	old := u.pools.Load()
	if old != nil {
		for _, p := range (*old)[h] {
			if slices.Equal(p.subset, subset) {
				return p
			}
		}
	}
	p := u.newPool(subset)
	m := map[uint64]bucket{}
	if old != nil {
		m = maps.Clone(*old)
	}
	m[h] = append(slices.Clip(m[h]), p) // readers of old keep its bucket
	u.pools.Store(&m)
	return p
}

// newPool precomputes subset; nil means every server.
func (u *Upstreams) newPool(subset []string) *pool {
	p := &pool{subset: slices.Clone(subset)}
	if len(u.endpoints) == 0 {
		p.err = errNoServers
		return p
	}
	if len(subset) == 0 {
		for i, e := range u.endpoints {
			if !u.disabled[i] {
				p.endpoints = append(p.endpoints, e)
			}
		}
		if len(p.endpoints) == 0 {
			p.err = fmt.Errorf("dispatch: the cluster has no enabled server: all %d of its servers are disabled", len(u.endpoints))
		}
		return p
	}
	var disabled, unknown []string
	for _, e := range subset {
		i, ok := u.index[e]
		switch {
		case !ok:
			if !slices.Contains(unknown, e) {
				unknown = append(unknown, e)
			}
		case u.disabled[i]:
			if !slices.Contains(disabled, e) {
				disabled = append(disabled, e)
			}
		case !slices.Contains(p.endpoints, e):
			p.endpoints = append(p.endpoints, e)
		}
	}
	var why []string
	if len(disabled) > 0 {
		why = append(why, fmt.Sprintf("%s %s disabled", quoteAll(disabled, ""), isAre(len(disabled))))
	}
	if len(unknown) > 0 {
		noun := "servers"
		if len(unknown) == 1 {
			noun = "a server"
		}
		why = append(why, fmt.Sprintf("%s %s not %s of the cluster; the servers are %s", quoteAll(unknown, ""), isAre(len(unknown)), noun, quoteAll(u.endpoints, "")))
		p.warning = fmt.Sprintf("dispatch: upstream subset %q names %s, skipped: %s", subset, quoteAll(unknown, ""), why[len(why)-1])
	}
	if len(p.endpoints) == 0 {
		p.err = fmt.Errorf("dispatch: upstream subset %q has no enabled server: %s", subset, strings.Join(why, "; "))
	}
	return p
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
