// The RBAC filter (envoy.filters.http.rbac) and the local rate limit
// filter (envoy.filters.http.local_ratelimit), as Envoy runs them on the
// route the router chose, for the configurations package xdsgen writes:
// each acts only where the route, or else its virtual host, has a
// configuration in typed_per_filter_config (the most specific wins, as
// Envoy's mostSpecificPerFilterConfig); the filters in the connection
// manager have no rules of their own.
//
// RBAC: RBACPerRoute.rbac.rules holds policies; a policy matches when one
// of its permissions and one of its principals match. Under ALLOW a request
// passes when a policy matches, under DENY when none does; otherwise Envoy
// answers 403. The model knows the permission any and the principals
// any, direct_remote_ip, remote_ip and or_ids; any other matches nothing.
//
// Local rate limit: a LocalRateLimit with filter_enabled and
// filter_enforced at 100% and a token bucket; Envoy keeps one bucket per
// configuration message, so the routes of a virtual host that use the
// virtual host's share its bucket. Buckets starts full and is not
// refilled: the model counts requests within one fill interval.

package envoysim

import (
	"net/netip"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	rbacconfigv3 "github.com/envoyproxy/go-control-plane/envoy/config/rbac/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	rbacv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/rbac/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// The names under which routes configure the filters.
const (
	RBACFilterName           = "envoy.filters.http.rbac"
	LocalRateLimitFilterName = "envoy.filters.http.local_ratelimit"
)

// mostSpecific returns the configuration of the filter name of the route,
// or else of its virtual host.
func mostSpecific(res Result, name string) *anypb.Any {
	if a := res.RouteProto.GetTypedPerFilterConfig()[name]; a != nil {
		return a
	}
	return res.VirtualHostProto.GetTypedPerFilterConfig()[name]
}

// RBAC reports whether the RBAC filter lets through a request routed to
// res from the connection's peer address with the client address remote
// (what X-Forwarded-For gives). It assumes the connection manager has the
// filter.
func RBAC(res Result, peer, remote netip.Addr) bool {
	a := mostSpecific(res, RBACFilterName)
	if a == nil {
		return true
	}
	var per rbacv3.RBACPerRoute
	if a.UnmarshalTo(&per) != nil {
		return false // Envoy would refuse the configuration
	}
	rules := per.GetRbac().GetRules()
	if rules == nil {
		return true
	}
	matched := false
	for _, p := range rules.GetPolicies() {
		if policyMatches(p, peer, remote) {
			matched = true
			break
		}
	}
	if rules.GetAction() == rbacconfigv3.RBAC_DENY {
		return !matched
	}
	return matched
}

func policyMatches(p *rbacconfigv3.Policy, peer, remote netip.Addr) bool {
	anyPermission := false
	for _, perm := range p.GetPermissions() {
		anyPermission = anyPermission || perm.GetAny()
	}
	if !anyPermission {
		return false
	}
	for _, pr := range p.GetPrincipals() {
		if principalMatches(pr, peer, remote) {
			return true
		}
	}
	return false
}

func principalMatches(pr *rbacconfigv3.Principal, peer, remote netip.Addr) bool {
	switch id := pr.GetIdentifier().(type) {
	case *rbacconfigv3.Principal_Any:
		return id.Any
	case *rbacconfigv3.Principal_DirectRemoteIp:
		return inRangeCIDR(id.DirectRemoteIp, peer)
	case *rbacconfigv3.Principal_RemoteIp:
		return inRangeCIDR(id.RemoteIp, remote)
	case *rbacconfigv3.Principal_OrIds:
		for _, sub := range id.OrIds.GetIds() {
			if principalMatches(sub, peer, remote) {
				return true
			}
		}
	}
	return false
}

func inRangeCIDR(c *corev3.CidrRange, a netip.Addr) bool {
	base, err := netip.ParseAddr(c.GetAddressPrefix())
	if err != nil {
		return false
	}
	p, err := base.Prefix(int(c.GetPrefixLen().GetValue()))
	return err == nil && p.Contains(a.Unmap())
}

// Buckets are the local rate limit filter's token buckets, by the
// configuration message that holds each.
type Buckets struct {
	taken map[*anypb.Any]uint32
}

// Take runs the local rate limit filter on a request routed to res: it
// reports whether the request passes, and else the status Envoy answers
// with (429 unless the configuration says otherwise).
func (b *Buckets) Take(res Result) (ok bool, status uint32) {
	a := mostSpecific(res, LocalRateLimitFilterName)
	if a == nil {
		return true, 0
	}
	var l localratelimitv3.LocalRateLimit
	if a.UnmarshalTo(&l) != nil {
		return false, 500
	}
	if !fractionOn(l.GetFilterEnabled(), false) || !fractionOn(l.GetFilterEnforced(), false) || l.GetTokenBucket() == nil {
		return true, 0
	}
	if b.taken == nil {
		b.taken = map[*anypb.Any]uint32{}
	}
	if b.taken[a] >= l.GetTokenBucket().GetMaxTokens() {
		status = 429
		if c := l.GetStatus().GetCode(); c != 0 {
			status = uint32(c)
		}
		return false, status
	}
	b.taken[a]++
	return true, 0
}
