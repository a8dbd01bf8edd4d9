package sesame_test

// The security property of HTTPProxy delegation (seed 003, "Security
// Considerations": "If the delegation is not properly implemented, there
// could be ways that users get access to portions of the host requests
// which they should not have access"), tested on random delegation trees:
//
//  1. every Envoy route generated from a delegated proxy carries its whole
//     include chain's path prefix and header conditions, as Envoy matchers;
//  2. no request that Envoy (envoysim) sends to such a route falls outside
//     what the chain granted, judged by a reference evaluation of the
//     conditions written here, independently of package dag.
//
// The trees are adversarial on purpose: children try exact paths,
// wildcards, dot-segments, header conditions that contradict or repeat
// their includes', and further includes without conditions.
//
// Beside each tree stand random Ingresses in random namespaces, for the
// root's fqdn, for any host and for a wildcard over it, with paths inside
// and outside the delegated prefixes (hostname ownership,
// dag/hostclaims.go):
//
//  3. a route carries the IP filter and rate limit of its own proxy's
//     route, or else the root's virtual host's, never another proxy's
//     (each policy names its proxy, ownPolicies);
//  4. no request to the root's fqdn reaches an Ingress route of a namespace
//     other than the root's, so no request to a delegated prefix reaches a
//     Service outside the chain's namespaces through an Ingress.

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	rbacv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/rbac/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/xdsgen"
)

// grantCond is one header condition of a chain, as the test understands it.
type grantCond = contourv1.HeaderMatchCondition

// chainGrant is what a chain of includes grants: the joined prefix and the
// header conditions, in the test's own terms.
type chainGrant struct {
	prefix  string
	headers []grantCond
}

// joinForTest joins prefixes as seed 003 and the issue say: concatenate,
// then collapse every run of "/".
func joinForTest(parts ...string) string {
	s := strings.Join(parts, "")
	for strings.Contains(s, "//") {
		s = strings.ReplaceAll(s, "//", "/")
	}
	return s
}

var (
	treePrefixes  = []string{"", "/", "/a", "/a/", "/api", "/api/v1", "/b", "/x/"}
	routePrefixes = []string{"", "/", "/1", "/x", "/*/x", "/v*/y", "/../admin", "/a/b/"}
	headerNames   = []string{"x-a", "x-b", "X-C"}
	headerValues  = []string{"1", "2", "v", "V"}
)

func randomHeader(rng *rand.Rand) *grantCond {
	h := &grantCond{Name: headerNames[rng.IntN(len(headerNames))]}
	v := headerValues[rng.IntN(len(headerValues))]
	switch rng.IntN(8) {
	case 0:
		h.Present = true
	case 1:
		h.NotPresent = true
	case 2:
		h.Exact = v
	case 3:
		h.NotExact, h.TreatMissingAsEmpty = v, rng.IntN(2) == 0
	case 4:
		h.Contains = v
	case 5:
		h.NotContains, h.TreatMissingAsEmpty = v, rng.IntN(2) == 0
	case 6:
		h.Regex = "[0-9]+"
	default:
		h.Exact, h.IgnoreCase = v, true
	}
	return h
}

// routeRegexes are regex path conditions of routes, some of which try to
// escape the grant's prefix by alternation or an anchor.
var routeRegexes = []string{"/v[0-9]+/.*", ".*", "|/admin.*", "/x|/admin", "^/admin.*", "/a/b(/.*)?"}

func randomConditions(rng *rand.Rand, prefixes []string, include bool) []contourv1.MatchCondition {
	var out []contourv1.MatchCondition
	if p := prefixes[rng.IntN(len(prefixes))]; p != "" {
		switch {
		case !include && rng.IntN(5) == 0:
			out = append(out, contourv1.MatchCondition{Exact: p})
		case !include && rng.IntN(5) == 0:
			out = append(out, contourv1.MatchCondition{Regex: routeRegexes[rng.IntN(len(routeRegexes))]})
		default:
			out = append(out, contourv1.MatchCondition{Prefix: p})
		}
	}
	for range rng.IntN(3) {
		out = append(out, contourv1.MatchCondition{Header: randomHeader(rng)})
	}
	return out
}

// tree builds a random delegation tree under the root default/root and
// returns its objects and, per proxy, the grant of the one chain that
// reaches it (trees, so each proxy has one parent).
func tree(rng *rand.Rand) ([]runtime.Object, map[string]chainGrant) {
	grants := map[string]chainGrant{"default/root": {}}
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var objects []runtime.Object
	namespaces := []string{"default", "n1", "n2", "n3"}
	for _, ns := range namespaces {
		objects = append(objects, &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: ns},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
		})
	}
	count := 0
	var build func(ns, name string, depth int) *contourv1.HTTPProxy
	build = func(ns, name string, depth int) *contourv1.HTTPProxy {
		p := &contourv1.HTTPProxy{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, CreationTimestamp: metav1.NewTime(created)}}
		key := ns + "/" + name
		own := proxyIndex(name)
		for range rng.IntN(3) {
			r := contourv1.Route{
				Conditions: randomConditions(rng, routePrefixes, false),
				Services:   []contourv1.Service{{Name: "svc", Port: 80}},
			}
			// Policies that name their proxy: 10.<own>.0.0/16 and <1000+own> requests.
			if rng.IntN(2) == 0 {
				r.IPDenyFilterPolicy = []contourv1.IPFilterPolicy{{Source: contourv1.IPFilterSourcePeer, CIDR: fmt.Sprintf("10.%d.0.0/16", own)}}
			}
			if rng.IntN(2) == 0 {
				r.RateLimitPolicy = &contourv1.RateLimitPolicy{Local: &contourv1.LocalRateLimitPolicy{Requests: uint32(1000 + own), Unit: "second"}}
			}
			p.Spec.Routes = append(p.Spec.Routes, r)
		}
		if depth < 4 {
			for range rng.IntN(3) {
				count++
				childNS, childName := namespaces[1+rng.IntN(3)], fmt.Sprintf("p%d", count)
				conds := randomConditions(rng, treePrefixes, true)
				p.Spec.Includes = append(p.Spec.Includes, contourv1.Include{Name: childName, Namespace: childNS, Conditions: conds})
				g := grants[key]
				child := chainGrant{prefix: g.prefix, headers: append([]grantCond(nil), g.headers...)}
				for _, c := range conds {
					child.prefix = joinForTest(child.prefix, c.Prefix)
					if c.Header != nil {
						child.headers = append(child.headers, *c.Header)
					}
				}
				grants[childNS+"/"+childName] = child
				objects = append(objects, build(childNS, childName, depth+1))
			}
		}
		return p
	}
	root := build("default", "root", 0)
	root.Spec.VirtualHost = &contourv1.VirtualHost{Fqdn: "example.com"}
	if rng.IntN(2) == 0 {
		root.Spec.VirtualHost.IPAllowFilterPolicy = []contourv1.IPFilterPolicy{{Source: contourv1.IPFilterSourcePeer, CIDR: rootCIDR}}
	}
	if rng.IntN(2) == 0 {
		root.Spec.VirtualHost.RateLimitPolicy = &contourv1.RateLimitPolicy{Local: &contourv1.LocalRateLimitPolicy{Requests: rootRequests, Unit: "minute"}}
	}
	if len(root.Spec.Routes)+len(root.Spec.Includes) == 0 {
		root.Spec.Routes = []contourv1.Route{{Services: []contourv1.Service{{Name: "svc", Port: 80}}}}
	}
	return append(objects, root), grants
}

// TestDelegationContainment is the property, over 300 random trees.
func TestDelegationContainment(t *testing.T) {
	checkedRoutes, checkedRequests, ownIngress, elsewhere, policed := 0, 0, 0, 0, 0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 5))
		objects, grants := tree(rng)
		objects = append(objects, randomIngresses(rng)...)
		res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		rc := routeTable(res, "ingress/8080")
		if rc == nil {
			t.Fatalf("seed %d: no route table", seed)
		}
		routes := map[*routev3.Route]chainGrant{}
		for _, vh := range rc.GetVirtualHosts() {
			for _, r := range vh.GetRoutes() {
				if _, ok := ingressNamespace(r.GetName()); ok {
					continue
				}
				owner, delegated := routeOwner(t, r)
				if !delegated {
					continue
				}
				g, ok := grants[owner]
				if !ok {
					t.Fatalf("seed %d: route %s of unknown proxy %s", seed, r.GetName(), owner)
				}
				routes[r] = g
				checkedRoutes++
				if len(r.GetTypedPerFilterConfig())+len(vh.GetTypedPerFilterConfig()) > 0 {
					policed++
				}
				if problem := ownPolicies(r, vh, owner); problem != "" {
					t.Errorf("seed %d: route %s of %s: %s", seed, r.GetName(), owner, problem)
				}
				if problem := carries(r, g); problem != "" {
					t.Errorf("seed %d: route %s (chain grant prefix %q, headers %v): %s", seed, r.GetName(), g.prefix, g.headers, problem)
				}
			}
		}
		for range 100 {
			req := randomRequest(rng)
			got := envoysim.Route(rc, "http", req)
			if ns, ok := ingressNamespace(got.Route); ok {
				if ns != "default" {
					t.Errorf("seed %d: %s reached %s, an Ingress outside the root's namespace", seed, describeRequest(req), got.Route)
				}
				ownIngress++
			}
			g, ok := routes[got.RouteProto]
			if !ok {
				continue
			}
			checkedRequests++
			if !granted(g, req) {
				t.Errorf("seed %d: %s reached %s, outside its chain's grant (prefix %q, headers %v)", seed, describeRequest(req), got.Route, g.prefix, g.headers)
			}
		}
		// The other namespaces' Ingresses do serve hosts nobody owns.
		for range 10 {
			req := randomRequest(rng)
			req.Authority = "other.example.com"
			if ns, ok := ingressNamespace(envoysim.Route(rc, "http", req).Route); ok && ns != "default" {
				elsewhere++
			}
		}
	}
	if checkedRoutes < 300 || checkedRequests < 300 || ownIngress < 100 || elsewhere < 100 || policed < 300 {
		t.Errorf("too little checked: %d routes (%d with policies), %d requests, %d to the root namespace's Ingresses, %d to others elsewhere", checkedRoutes, policed, checkedRequests, ownIngress, elsewhere)
	}
	t.Logf("checked %d delegated routes and %d requests that reached them; %d requests reached the root namespace's Ingresses, %d other namespaces' Ingresses for another host", checkedRoutes, checkedRequests, ownIngress, elsewhere)
}

// randomIngresses writes Ingresses in random namespaces for example.com,
// any host and "*.example.com", with paths in and out of the trees'
// prefixes.
func randomIngresses(rng *rand.Rand) []runtime.Object {
	namespaces := []string{"default", "n1", "n2", "n3", "attacker"}
	hosts := []string{"example.com", "", "*.example.com"}
	paths := []string{"/", "/a", "/a/x", "/api/v1/x", "/b", "/x/v2", "/1", "/apix"}
	types := []networkingv1.PathType{networkingv1.PathTypeExact, networkingv1.PathTypePrefix, networkingv1.PathTypeImplementationSpecific}
	var out []runtime.Object
	for i := range 1 + rng.IntN(4) {
		ing := &networkingv1.Ingress{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("ing%d", i), Namespace: namespaces[rng.IntN(len(namespaces))]}}
		for range 1 + rng.IntN(2) {
			rule := networkingv1.IngressRule{Host: hosts[rng.IntN(len(hosts))], IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{}}}
			for range 1 + rng.IntN(3) {
				rule.HTTP.Paths = append(rule.HTTP.Paths, networkingv1.HTTPIngressPath{
					Path: paths[rng.IntN(len(paths))], PathType: &types[rng.IntN(len(types))],
					Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: "svc", Port: networkingv1.ServiceBackendPort{Number: 80}}},
				})
			}
			ing.Spec.Rules = append(ing.Spec.Rules, rule)
		}
		out = append(out, ing)
	}
	out = append(out, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "svc", Namespace: "attacker"},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
	})
	return out
}

// ingressNamespace reads the namespace of an Ingress route from its name,
// "ingress/<namespace>/<name>/spec...".
func ingressNamespace(route string) (string, bool) {
	rest, ok := strings.CutPrefix(route, "ingress/")
	if !ok {
		return "", false
	}
	ns, _, _ := strings.Cut(rest, "/")
	return ns, true
}

// routeOwner reads the proxy at the end of a route's chain from its
// metadata; delegated is false for the root's own routes.
func routeOwner(t *testing.T, r *routev3.Route) (string, bool) {
	md := r.GetMetadata().GetFilterMetadata()[xdsgen.RouteMetadataKey]
	chain := md.GetFields()["chain"].GetListValue().GetValues()
	if len(chain) == 0 {
		t.Fatalf("route %s has no chain metadata", r.GetName())
	}
	owner := chain[len(chain)-1].GetStringValue()
	if !strings.HasPrefix(r.GetName(), "httpproxy/"+owner+"/") && !strings.Contains(r.GetName(), "/spec.includes[") {
		t.Fatalf("route %s: its chain ends with %s", r.GetName(), owner)
	}
	return owner, len(chain) > 1
}

// carries checks property 1 on the route's Envoy match.
func carries(r *routev3.Route, g chainGrant) string {
	m := r.GetMatch()
	switch p := m.GetPathSpecifier().(type) {
	case *routev3.RouteMatch_Prefix:
		if !strings.HasPrefix(p.Prefix, g.prefix) {
			return fmt.Sprintf("prefix %q", p.Prefix)
		}
	case *routev3.RouteMatch_Path:
		if !strings.HasPrefix(p.Path, g.prefix) {
			return fmt.Sprintf("path %q", p.Path)
		}
	case *routev3.RouteMatch_SafeRegex:
		re, err := regexp.Compile(p.SafeRegex.GetRegex())
		if err != nil {
			return err.Error()
		}
		if lit, _ := re.LiteralPrefix(); !strings.HasPrefix(lit, g.prefix) {
			return fmt.Sprintf("regex %q does not require the prefix", p.SafeRegex.GetRegex())
		}
	default:
		return fmt.Sprintf("path specifier %T", p)
	}
	for _, h := range g.headers {
		want := expectedMatcher(h)
		found := false
		for _, got := range m.GetHeaders() {
			if proto.Equal(got, want) {
				found = true
			}
		}
		if !found {
			return fmt.Sprintf("no header matcher %v", want)
		}
	}
	return ""
}

// expectedMatcher is the Envoy matcher a condition must become, written
// out here rather than taken from xdsgen.
func expectedMatcher(h grantCond) *routev3.HeaderMatcher {
	m := &routev3.HeaderMatcher{Name: strings.ToLower(h.Name)}
	str := func(pattern *matcherv3.StringMatcher) *routev3.HeaderMatcher_StringMatch {
		return &routev3.HeaderMatcher_StringMatch{StringMatch: pattern}
	}
	switch {
	case h.Present:
		m.HeaderMatchSpecifier = &routev3.HeaderMatcher_PresentMatch{PresentMatch: true}
	case h.NotPresent:
		m.HeaderMatchSpecifier, m.InvertMatch = &routev3.HeaderMatcher_PresentMatch{PresentMatch: true}, true
	case h.Exact != "":
		m.HeaderMatchSpecifier = str(&matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: h.Exact}, IgnoreCase: h.IgnoreCase})
	case h.NotExact != "":
		m.HeaderMatchSpecifier = str(&matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: h.NotExact}, IgnoreCase: h.IgnoreCase})
		m.InvertMatch, m.TreatMissingHeaderAsEmpty = true, h.TreatMissingAsEmpty
	case h.Contains != "":
		m.HeaderMatchSpecifier = str(&matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Contains{Contains: h.Contains}, IgnoreCase: h.IgnoreCase})
	case h.NotContains != "":
		m.HeaderMatchSpecifier = str(&matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Contains{Contains: h.NotContains}, IgnoreCase: h.IgnoreCase})
		m.InvertMatch, m.TreatMissingHeaderAsEmpty = true, h.TreatMissingAsEmpty
	case h.Regex != "":
		m.HeaderMatchSpecifier = str(&matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: h.Regex}}})
	}
	return m
}

func randomRequest(rng *rand.Rand) envoysim.Request {
	paths := []string{"/", "/a", "/a/1", "/a/x", "/api", "/api/v1", "/api/v1/x", "/apix", "/b/1/x", "/x/v2/y", "/a/b/c", "/1"}
	path := paths[rng.IntN(len(paths))]
	if rng.IntN(3) == 0 {
		path += []string{"/", "x", "/1/x", "/z/x"}[rng.IntN(4)]
	}
	var headers []string
	for _, name := range headerNames {
		if rng.IntN(2) == 0 {
			headers = append(headers, fmt.Sprintf("%s: %s", name, headerValues[rng.IntN(len(headerValues))]))
		}
	}
	return get("example.com", path, headers...)
}

// granted is property 2's reference: does the request meet the grant?
func granted(g chainGrant, req envoysim.Request) bool {
	path, _, _ := strings.Cut(req.Path, "?")
	if !strings.HasPrefix(path, g.prefix) {
		return false
	}
	for _, h := range g.headers {
		value, present := "", false
		for name, values := range req.Headers {
			if strings.EqualFold(name, h.Name) {
				value, present = strings.Join(values, ","), true
			}
		}
		if !headerGranted(h, value, present) {
			return false
		}
	}
	return true
}

func headerGranted(h grantCond, value string, present bool) bool {
	eq := func(a, b string) bool { return a == b || (h.IgnoreCase && strings.EqualFold(a, b)) }
	contains := func(a, b string) bool {
		if h.IgnoreCase {
			return strings.Contains(strings.ToLower(a), strings.ToLower(b))
		}
		return strings.Contains(a, b)
	}
	switch {
	case h.Present:
		return present
	case h.NotPresent:
		return !present
	case h.Exact != "":
		return present && eq(value, h.Exact)
	case h.NotExact != "":
		return (present || h.TreatMissingAsEmpty) && !eq(value, h.NotExact)
	case h.Contains != "":
		return present && contains(value, h.Contains)
	case h.NotContains != "":
		return (present || h.TreatMissingAsEmpty) && !contains(value, h.NotContains)
	case h.Regex != "":
		return present && regexp.MustCompile(`^(?:`+h.Regex+`)$`).MatchString(value)
	}
	return false
}

// The root's policies in the trees: an allow list and a shared bucket.
const (
	rootCIDR     = "192.168.0.0/16"
	rootRequests = 7
)

// proxyIndex is the number in a tree proxy's name, "p3" -> 3; 0 for the
// root.
func proxyIndex(name string) int {
	var i int
	fmt.Sscanf(name, "p%d", &i)
	return i
}

// ownPolicies checks property 3 on a route of owner ("ns/pN") in vh: its
// RBAC filter names owner's block or the root's, its own rate limit
// owner's count, and the virtual host's limit is the root's.
func ownPolicies(r *routev3.Route, vh *routev3.VirtualHost, owner string) string {
	_, name, _ := strings.Cut(owner, "/")
	own := proxyIndex(name)
	if a := r.GetTypedPerFilterConfig()[envoysim.RBACFilterName]; a != nil {
		var per rbacv3.RBACPerRoute
		if err := a.UnmarshalTo(&per); err != nil {
			return err.Error()
		}
		for _, p := range per.GetRbac().GetRules().GetPolicies() {
			for _, pr := range p.GetPrincipals() {
				for _, id := range pr.GetOrIds().GetIds() {
					c := id.GetDirectRemoteIp()
					got := fmt.Sprintf("%s/%d", c.GetAddressPrefix(), c.GetPrefixLen().GetValue())
					if got != rootCIDR && got != fmt.Sprintf("10.%d.0.0/16", own) {
						return "IP filter on " + got + ", which is neither its proxy's nor the root's"
					}
				}
			}
		}
	}
	for _, at := range []struct {
		configs map[string]*anypb.Any
		want    uint32
	}{{r.GetTypedPerFilterConfig(), uint32(1000 + own)}, {vh.GetTypedPerFilterConfig(), rootRequests}} {
		if a := at.configs[envoysim.LocalRateLimitFilterName]; a != nil {
			var l localratelimitv3.LocalRateLimit
			if err := a.UnmarshalTo(&l); err != nil {
				return err.Error()
			}
			if got := l.GetTokenBucket().GetTokensPerFill().GetValue(); got != at.want {
				return fmt.Sprintf("rate limit of %d requests, want %d", got, at.want)
			}
		}
	}
	return ""
}
