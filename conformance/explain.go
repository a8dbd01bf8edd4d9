package conformance

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"

	"github.com/projectsesame/sesame/explain"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/envoysim"
)

// certificateError is a TLS handshake that fails on a certificate: the
// client does not trust the server's, or the server refuses the client's.
// sesame explain does not verify certificates, so it is not compared.
type certificateError struct{ error }

func (e certificateError) Unwrap() error { return e.error }

// explainDisagrees checks that sesame explain (package explain) says of
// req what the run did with it: refused when the connection was (no
// listener, no filter chain, TLS on one side only), the status Envoy
// answered with, or the clusters the router chose. It returns "" when the
// two agree. The suite's every request thus checks explain against the
// model that judges Sesame.
func explainDisagrees(in explain.Input, u url.URL, serverName string, req envoysim.Request, out response, sendErr error, routed *envoysim.Result) string {
	ereq := explain.Request{
		Scheme:  u.Scheme,
		Host:    strings.ToLower(hostmatch.HostOfAuthority(req.Authority)),
		Port:    defaultPort(u),
		Method:  req.Method,
		Path:    req.Path,
		Headers: maps.Clone(req.Headers),
	}
	if ereq.Headers == nil {
		ereq.Headers = map[string][]string{}
	}
	ereq.Headers["Host"] = []string{req.Authority}
	if u.Scheme == "https" {
		ereq.ServerName = serverName
		if serverName == "" {
			ereq.ServerName = "-" // a client that sends no server name; no chain names "-"
		}
	}
	e, err := explain.Explain(in, ereq)
	var cert certificateError
	switch {
	case err != nil:
		return err.Error()
	case errors.As(sendErr, &cert):
		return ""
	case sendErr != nil && routed == nil:
		if e.Outcome != explain.Refused {
			return fmt.Sprintf("the connection failed (%v); explain says %s: %s", sendErr, e.Outcome, e.Reason)
		}
		return ""
	case routed == nil:
		return ""
	case out.status == http.StatusForbidden && envoysim.UpgradeType(req) != "":
		if e.Status != http.StatusForbidden {
			return fmt.Sprintf("an upgrade refused (403); explain says %s %d: %s", e.Outcome, e.Status, e.Reason)
		}
		return ""
	}
	return sameRouting(e, *routed, out)
}

// sameRouting compares explain's account with the router's decision.
func sameRouting(e *explain.Explanation, routed envoysim.Result, out response) string {
	switch {
	case e.Outcome == explain.Answered && e.Status == 200 && out.status == 200 && routed.Status() == 0 && strings.Contains(e.Reason, "CORS"):
		return "" // a preflight the CORS filter answered
	case routed.Redirect != nil:
		if e.Action == nil || e.Action.Redirect == nil || e.Action.Redirect.Location != routed.Redirect.Location || e.Status != routed.Redirect.Status {
			return fmt.Sprintf("redirect %d to %s; explain says %s %d: %s", routed.Redirect.Status, routed.Redirect.Location, e.Outcome, e.Status, e.Reason)
		}
		return ""
	case routed.Status() != 0:
		if e.Status != routed.Status() {
			return fmt.Sprintf("status %d; explain says %s %d: %s", routed.Status(), e.Outcome, e.Status, e.Reason)
		}
		return ""
	}
	want := map[string]bool{}
	if routed.Cluster != "" {
		want[routed.Cluster] = true
	}
	for name, w := range routed.WeightedClusters {
		if w > 0 {
			want[name] = true
		}
	}
	got := map[string]bool{}
	if e.Action != nil {
		for _, b := range e.Action.Backends {
			if b.Weight > 0 {
				got[b.Cluster] = true
			}
		}
	}
	if !maps.Equal(want, got) {
		return fmt.Sprintf("clusters %v; explain says %v (%s: %s)", want, got, e.Outcome, e.Reason)
	}
	return ""
}
