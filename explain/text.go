package explain

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes e for people: one line a step, the action, the result,
// then what was passed over and what the model does not decide.
//
//	request       GET https://shop.example.com/api/v1
//	listener      gateway/default/public/443  (Gateway default/public; port 443)
//	filter chain  gateway/default/public/443/https  (Gateway default/public; listener https, server name shop.example.com)
//	virtual host  default/public/https/shop.example.com  (Gateway default/public; listener https, domain shop.example.com)
//	route         httproute/shop/api/rule/0/match/0  (HTTPRoute shop/api spec.rules[0].matches[0]; PathPrefix /api)
//	backend       Service shop/api port 8080, weight 1, 2 endpoints
//	result        forwarded: the request goes to the backends by weight; the backend answers
//	skipped
//	  route httproute/shop/web/rule/0/match/0 (HTTPRoute shop/web spec.rules[0].matches[0]): path /api/v1 does not match PathPrefix /web
func (e *Explanation) WriteText(w io.Writer) error {
	var b strings.Builder
	line := func(label, text string) { fmt.Fprintf(&b, "%-13s %s\n", label, text) }
	step := func(label string, s *Step) {
		if s == nil {
			return
		}
		var about []string
		if s.Object != nil {
			about = append(about, s.Object.String())
		}
		if s.Detail != "" {
			about = append(about, s.Detail)
		}
		name := s.Name
		if name == "" {
			name = "(unnamed)"
		}
		if len(about) > 0 {
			name += "  (" + strings.Join(about, "; ") + ")"
		}
		line(label, name)
	}
	line("request", e.Request)
	step("listener", e.Listener)
	step("filter chain", e.FilterChain)
	step("virtual host", e.VirtualHost)
	step("route", e.Route)
	if a := e.Action; a != nil {
		var total uint64
		for _, bk := range a.Backends {
			total += uint64(bk.Weight)
		}
		for _, bk := range a.Backends {
			weight := fmt.Sprintf("weight %d", bk.Weight)
			if len(a.Backends) > 1 && total > 0 {
				weight += fmt.Sprintf(" (%d%%)", uint64(bk.Weight)*100/total)
			}
			text := fmt.Sprintf("%s, %s, %s", backendName(bk), weight, plural(bk.Endpoints, "endpoint"))
			if bk.Missing != 0 {
				text = fmt.Sprintf("cluster %s, %s, does not exist (answers %d)", bk.Cluster, weight, bk.Missing)
			}
			line("backend", text)
		}
		if r := a.Redirect; r != nil {
			line("redirect", fmt.Sprintf("%d to %s", r.Status, r.Location))
		}
		if d := a.DirectResponse; d != nil {
			line("answer", fmt.Sprintf("%d", d.Status))
		}
		if rw := a.Rewrite; rw != nil {
			if rw.Path != "" {
				line("rewrite", "path "+rw.Path)
			}
			if rw.Host != "" {
				line("rewrite", "host "+rw.Host)
			}
		}
		for _, f := range a.Filters {
			line("filter", f)
		}
	}
	result := e.Outcome
	if e.Status != 0 {
		result = fmt.Sprintf("%s %d", result, e.Status)
	}
	line("result", result+": "+e.Reason)
	if len(e.Skipped) > 0 {
		b.WriteString("skipped\n")
		for _, s := range e.Skipped {
			what := s.Step
			if s.Name != "" {
				what += " " + s.Name
			}
			if s.Object != nil && s.Name != "" {
				what += " (" + s.Object.String() + ")"
			} else if s.Object != nil {
				what += " " + s.Object.String()
			}
			fmt.Fprintf(&b, "  %s: %s\n", what, s.Reason)
		}
	}
	if len(e.NotModelled) > 0 {
		b.WriteString("not modelled\n")
		for _, n := range e.NotModelled {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
