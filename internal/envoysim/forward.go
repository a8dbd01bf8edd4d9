// What a forwarded request looks like on either side of Envoy: Upstream is
// the request a backend receives, Downstream the response headers a client
// gets back.
//
// Header changes (HeaderValueOption, headers_to_remove) come from four
// levels: the chosen weighted cluster, the route, the virtual host and the
// route configuration. With most_specific_header_mutations_wins false (the
// default) Envoy evaluates them in that order, most specific first, so
// that a less specific level's overwrite has the last word; with it true the
// order is reversed. Within a level, removals come before additions
// (Envoy's HeaderParser). An addition's append_action decides what happens
// to values already there: APPEND_IF_EXISTS_OR_ADD (the default) adds one
// more value, ADD_IF_ABSENT adds only when the header is absent,
// OVERWRITE_IF_EXISTS_OR_ADD replaces, OVERWRITE_IF_EXISTS replaces only
// when present. An empty value is skipped unless keep_empty_value is set.
// The deprecated append field is honoured when append_action is unset.
//
// Values are taken literally: Envoy's %VAR% substitution formatters are
// outside the model. Host rewrites are host_rewrite_literal only, on the
// route or the weighted cluster (the latter wins). Headers Envoy adds on its
// own (x-forwarded-for, x-request-id, x-envoy-*) are not added.

package envoysim

import (
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// Upstream returns the request Envoy sends to cluster when it forwards req
// by res: the path after the route's rewrite, the Host after a host rewrite,
// and the headers after every level's changes. cluster names the weighted
// cluster chosen, whose own changes apply first; it is ignored for a
// single-cluster route. The result's header names are lower case, with
// x-forwarded-proto set to the listener's scheme (http when req says
// nothing) and no pseudo-headers.
func Upstream(res Result, cluster string, req Request) Request {
	r := newRequest(req, res.scheme)
	for name := range r.headers {
		if strings.HasPrefix(name, ":") {
			delete(r.headers, name)
		}
	}
	out := Request{Authority: r.authority, Method: r.method, Path: r.path, Headers: r.headers}
	action := res.RouteAction
	if action == nil {
		return out
	}
	out.Path = RewritePath(action, res.RouteProto.GetMatch(), out.Path)
	if lit := action.GetHostRewriteLiteral(); lit != "" {
		out.Authority = lit
	}
	w := weight(action, cluster)
	if lit := w.GetHostRewriteLiteral(); lit != "" {
		out.Authority = lit
	}
	levels := []mutation{
		{w.GetRequestHeadersToAdd(), w.GetRequestHeadersToRemove()},
		{res.RouteProto.GetRequestHeadersToAdd(), res.RouteProto.GetRequestHeadersToRemove()},
		{res.VirtualHostProto.GetRequestHeadersToAdd(), res.VirtualHostProto.GetRequestHeadersToRemove()},
		{res.config.GetRequestHeadersToAdd(), res.config.GetRequestHeadersToRemove()},
	}
	mutate(out.Headers, levels, res.config.GetMostSpecificHeaderMutationsWins())
	return out
}

// Downstream returns headers, a backend's response headers, after the
// response header changes of every level, for a request res forwarded to
// cluster (see Upstream). headers is not modified; the result's names are
// lower case.
func Downstream(res Result, cluster string, headers map[string][]string) map[string][]string {
	out := make(map[string][]string, len(headers))
	for name, values := range headers {
		lower := asciiLower(name)
		out[lower] = append(out[lower], values...)
	}
	w := weight(res.RouteAction, cluster)
	levels := []mutation{
		{w.GetResponseHeadersToAdd(), w.GetResponseHeadersToRemove()},
		{res.RouteProto.GetResponseHeadersToAdd(), res.RouteProto.GetResponseHeadersToRemove()},
		{res.VirtualHostProto.GetResponseHeadersToAdd(), res.VirtualHostProto.GetResponseHeadersToRemove()},
		{res.config.GetResponseHeadersToAdd(), res.config.GetResponseHeadersToRemove()},
	}
	mutate(out, levels, res.config.GetMostSpecificHeaderMutationsWins())
	return out
}

// mutation is one level's header changes.
type mutation struct {
	add    []*corev3.HeaderValueOption
	remove []string
}

// weight is the weighted cluster named cluster, or nil.
func weight(action *routev3.RouteAction, cluster string) *routev3.WeightedCluster_ClusterWeight {
	for _, w := range action.GetWeightedClusters().GetClusters() {
		if w.GetName() == cluster {
			return w
		}
	}
	return nil
}

// mutate applies levels, most specific first, to headers (lower-case
// names), or least specific first when reverse is set.
func mutate(headers map[string][]string, levels []mutation, reverse bool) {
	for i := range levels {
		l := levels[i]
		if reverse {
			l = levels[len(levels)-1-i]
		}
		for _, name := range l.remove {
			delete(headers, asciiLower(name))
		}
		for _, o := range l.add {
			addHeader(headers, o)
		}
	}
}

// addHeader applies one HeaderValueOption.
func addHeader(headers map[string][]string, o *corev3.HeaderValueOption) {
	name, value := asciiLower(o.GetHeader().GetKey()), o.GetHeader().GetValue()
	if name == "" || value == "" && !o.GetKeepEmptyValue() {
		return
	}
	action := o.GetAppendAction()
	if o.GetAppend() != nil && action == corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD && !o.GetAppend().GetValue() {
		action = corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD
	}
	_, present := headers[name]
	switch action {
	case corev3.HeaderValueOption_ADD_IF_ABSENT:
		if !present {
			headers[name] = []string{value}
		}
	case corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD:
		headers[name] = []string{value}
	case corev3.HeaderValueOption_OVERWRITE_IF_EXISTS:
		if present {
			headers[name] = []string{value}
		}
	default:
		headers[name] = append(headers[name], value)
	}
}
