// Guards: routes that answer for a rule where Envoy cannot decide it.
//
// Leaving a rule out, or its undecidable part, would not only lose the
// requests it matches: they would fall through to later policies, which
// dispatch never lets them reach, and be forwarded there silently. A guard
// route sits at the rule's position instead and answers 500 with a body
// that names the cluster, the rule and the reason, so the difference from
// dispatch is loud and local. A guard covers a superset of the undecided
// requests the rule may match, never fewer; a request it catches that
// dispatch would have passed on is answered 500 too, which is the price of
// never misrouting.
//
// The guards every rule has:
//
//   - the path guard: the identity conditions of the rule (and, for a
//     non-resource rule, its verbs) and a path that has a '%' or a byte
//     that is not printable ASCII, in the path or in the query. Kubernetes
//     reads the decoded path; Envoy, which must forward the path as sent,
//     sees it encoded, and RE2 regexes of Envoy's size cannot decode it.
//     Kubernetes clients do not escape the characters of API paths, so
//     this costs nothing in practice but percent-escaped paths.
//   - query guards (query.go), for a collection GET whose rule tells list
//     from watch, or restricts names.
//   - conditions Envoy cannot test (dnf.go: a regex over the size limit for
//     a single value, a group containing ","): the conjunctions holding
//     one, without it.

package envoy

import (
	"fmt"
	"slices"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// pathUnclear: the path has a '%' or a byte that is not printable ASCII,
// or the query has such a byte.
var pathUnclear = pathCond(`[!-$&->@-~]*(?:[^!-$&->@-~?]|\?` + anyRest + `[^!-~])(?s:.)*`)

// addGuards appends the conjunctions of d, without their unknown
// conditions, as guards for why.
func addGuards(gs []guard, d dnf, why string) []guard {
	for _, c := range d {
		known := slices.DeleteFunc(slices.Clone(c), func(x cond) bool { return x.unknown != "" })
		gs = append(gs, guard{known, why})
	}
	return gs
}

// simplifyGuards simplifies the guards of each reason, keeping the reasons
// in the order they first appear.
func simplifyGuards(gs []guard) []guard {
	var whys []string
	byWhy := map[string]dnf{}
	for _, g := range gs {
		if _, ok := byWhy[g.why]; !ok {
			whys = append(whys, g.why)
		}
		byWhy[g.why] = append(byWhy[g.why], g.match)
	}
	var out []guard
	for _, why := range whys {
		for _, c := range simplify(byWhy[why]) {
			out = append(out, guard{c, why})
		}
	}
	return out
}

// guardRoute is the route of a guard of rule j of policy i of cluster
// name.
func guardRoute(routeName, cluster string, i, j int, g guard) *routev3.Route {
	body := fmt.Sprintf("sesame: UpstreamCluster %s: dispatchPolicies[%d].rules[%d] may match this request, but the gateway cannot decide it: %s\n",
		cluster, i, j, g.why)
	return &routev3.Route{
		Name:  routeName,
		Match: conjMatch(g.match),
		Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{
			Status: 500,
			Body:   &corev3.DataSource{Specifier: &corev3.DataSource_InlineString{InlineString: body}},
		}},
	}
}
