package sesame_test

// sesame explain must say what the request tests judge: every request of
// their tables (requests_test.go and the other *_requests_test.go), sent as
// a client would (to the port of the listener whose route table the table
// names, with a server name that reaches it), must be explained with the
// backend, split or status the table expects.

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/explain"
	"github.com/projectsesame/sesame/internal/envoysim"
)

func TestExplainAgreesWithRequestTables(t *testing.T) {
	tables := slices.Concat(requestTests, grpcRequestTests, httpProxyRequestTests, ingressRequestTests)
	translated := translations(t)
	n := 0
	for _, tt := range tables {
		res := translated(tt.file)
		l, fc := chainOfRouteTable(res, tt.routes)
		if fc == nil {
			t.Errorf("%s: no filter chain uses route table %q", tt.file, tt.routes)
			continue
		}
		for _, r := range tt.requests {
			req := explainRequest(l, fc, tt.scheme, r.req)
			e, err := res.Explain(req)
			if err != nil {
				t.Errorf("%s: %s: %v", tt.file, r.name, err)
				continue
			}
			n++
			if msg := agrees(e, r.want); msg != "" {
				var text strings.Builder
				_ = e.WriteText(&text)
				t.Errorf("%s (%s): %s: %s: %s\n%s", tt.file, tt.routes, r.name, describeRequest(r.req), msg, text.String())
			}
		}
	}
	if n < 150 {
		t.Errorf("explained %d requests, want at least 150", n)
	}
	t.Logf("explained %d requests over %d route tables", n, len(tables))
}

// chainOfRouteTable finds the listener and filter chain whose connection
// manager uses the named route table.
func chainOfRouteTable(res *sesame.Result, name string) (*listenerv3.Listener, *listenerv3.FilterChain) {
	for _, l := range res.XDS.Listeners {
		for _, fc := range l.GetFilterChains() {
			if hcm, _ := envoysim.ConnectionManager(fc); hcm != nil && hcm.GetRds().GetRouteConfigName() == name {
				return l, fc
			}
		}
	}
	return nil, nil
}

// explainRequest is r sent to fc: to the listener's client port, with a
// server name that picks fc when the listener picks by server name (the
// request's host when it does, else one of fc's names).
func explainRequest(l *listenerv3.Listener, fc *listenerv3.FilterChain, scheme string, r envoysim.Request) explain.Request {
	parts := strings.Split(l.GetName(), "/")
	req := explain.Request{
		Scheme:  scheme,
		Host:    strings.ToLower(r.Authority),
		Method:  r.Method,
		Path:    r.Path,
		Headers: maps.Clone(r.Headers),
		Port:    l.GetAddress().GetSocketAddress().GetPortValue(),
	}
	if req.Method == "" {
		req.Method = "GET"
	}
	if req.Path == "" {
		req.Path = "/"
	}
	if req.Headers == nil {
		req.Headers = map[string][]string{}
	}
	if r.Authority != "" {
		req.Headers["Host"] = []string{r.Authority} // as sent, port and case kept
	}
	if h, _, ok := strings.Cut(req.Host, ":"); ok {
		req.Host = h
	}
	if parts[0] == "gateway" && len(parts) == 4 {
		fmt.Sscan(parts[3], &req.Port)
		req.Gateway = parts[1] + "/" + parts[2]
	}
	if scheme == "https" {
		req.ServerName = serverNameFor(l, fc, req.Host)
	}
	return req
}

// serverNameFor is a server name that reaches fc: host if it does, else
// one of fc's names (a wildcard's with a label in front).
func serverNameFor(l *listenerv3.Listener, fc *listenerv3.FilterChain, host string) string {
	candidates := []string{host}
	for _, n := range fc.GetFilterChainMatch().GetServerNames() {
		candidates = append(candidates, strings.Replace(n, "*", "probe", 1))
	}
	for _, c := range candidates {
		if c != "" && envoysim.FilterChain(l, c) == fc {
			return c
		}
	}
	return host
}

// agrees returns "" when e says what w expects, and what differs otherwise.
// The request tables' objects have no endpoints, which the tables do not
// model: a backend is compared by name and share, whatever its endpoints.
func agrees(e *explain.Explanation, w want) string {
	got := explained(e)
	if !sameOutcome(w.outcome(), got) {
		return fmt.Sprintf("want %v, explained %v", w.outcome(), got)
	}
	return ""
}

// explained is what e says a client observes, as observe says it of
// envoysim's result: a backend whose cluster is missing answers its
// status, named by it in a split unless it is 500.
func explained(e *explain.Explanation) outcome {
	a := e.Action
	if a == nil || len(a.Backends) == 0 {
		o := outcome{status: e.Status}
		if a != nil && a.Redirect != nil {
			o.location = a.Redirect.Location
		}
		return o
	}
	shares := map[string]uint32{}
	missing := map[string]uint32{}
	for _, b := range a.Backends {
		if b.Weight == 0 {
			continue
		}
		name := b.Cluster
		if b.Missing != 0 && b.Missing != 500 {
			name = fmt.Sprintf("%s (answers %d)", name, b.Missing)
		}
		shares[name] += b.Weight
		if b.Missing != 0 {
			missing[name] = b.Missing
		}
	}
	if len(shares) == 1 {
		for name := range shares {
			if missing[name] != 0 {
				return outcome{status: missing[name]}
			}
			return outcome{cluster: name}
		}
	}
	return outcome{weights: shares}
}

// TestEveryRouteNamesItsObject: explain.ObjectOf reads the object back from
// the name of every route, filter chain and Gateway resource of every
// golden translation, so that explain can say which object serves a
// request whatever the input.
func TestEveryRouteNamesItsObject(t *testing.T) {
	checked := 0
	for _, file := range goldenFiles(t) {
		res := loadCase(t, file).result
		check := func(kind, name string, want bool) {
			if got := explain.ObjectOf(kind, name) != nil; got != want {
				t.Errorf("%s: %s %q: object found %v, want %v", filepath.Base(file), kind, name, got, want)
			}
			checked++
		}
		for _, l := range res.XDS.Listeners {
			check("Listener", l.GetName(), strings.HasPrefix(l.GetName(), "gateway/"))
			for _, fc := range l.GetFilterChains() {
				if fc.GetName() != "" {
					host := strings.HasPrefix(fc.GetName(), "ingress/") || strings.Contains(fc.GetName(), "/ingress/")
					check("FilterChain", fc.GetName(), !host || strings.Contains(fc.GetName(), "/httpproxy/"))
				}
			}
		}
		for _, rc := range res.XDS.Routes {
			for _, vh := range rc.GetVirtualHosts() {
				check("VirtualHost", vh.GetName(), !strings.HasPrefix(vh.GetName(), "ingress/"))
				for _, r := range vh.GetRoutes() {
					check("Route", r.GetName(), r.GetName() != "misdirected")
				}
			}
		}
	}
	t.Logf("read the objects of %d resource names", checked)
}
