package sesame_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
)

// checkMessagesBounded checks what a translation writes against the API
// server's limits: every message valid UTF-8, every condition message,
// HTTPProxy description and sub-condition message within
// graph.MaxConditionMessage, every Event message within graph.MaxEventMessage, and at most graph.MaxSubConditions errors and
// warnings per HTTPProxy. With long, non-empty, it also checks that no
// message quotes more than graph.MaxQuoted bytes of it.
func checkMessagesBounded(t *testing.T, res *sesame.Result, long string) {
	t.Helper()
	check := func(where, msg string, limit int) {
		t.Helper()
		if len(msg) > limit {
			t.Errorf("%s: a message of %d bytes, over the limit of %d", where, len(msg), limit)
		}
		if !utf8.ValidString(msg) {
			t.Errorf("%s: the message is not valid UTF-8: %q", where, msg)
		}
		if len(long) > graph.MaxQuoted && strings.Contains(msg, long[:graph.MaxQuoted+1]) {
			t.Errorf("%s: the message quotes more than %d bytes of a value: %.300s...", where, graph.MaxQuoted, msg)
		}
	}
	for _, u := range res.Status {
		b, err := json.Marshal(u.Status)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Description string                        `json:"description"`
			Conditions  []contourv1.DetailedCondition `json:"conditions"`
			Parents     []struct {
				Conditions []metav1.Condition `json:"conditions"`
			} `json:"parents"`
			Listeners []struct {
				Conditions []metav1.Condition `json:"conditions"`
			} `json:"listeners"`
		}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("%s %s/%s", u.Kind, u.Namespace, u.Name)
		check(where+" description", st.Description, graph.MaxConditionMessage)
		var conds []metav1.Condition
		for _, c := range st.Conditions {
			conds = append(conds, c.Condition)
			if len(c.Errors) > graph.MaxSubConditions || len(c.Warnings) > graph.MaxSubConditions {
				t.Errorf("%s: %d errors and %d warnings, over the limit of %d", where, len(c.Errors), len(c.Warnings), graph.MaxSubConditions)
			}
			for _, sub := range append(c.Errors, c.Warnings...) {
				check(where+" sub-condition "+sub.Reason, sub.Message, graph.MaxConditionMessage)
			}
		}
		for _, p := range st.Parents {
			conds = append(conds, p.Conditions...)
		}
		for _, l := range st.Listeners {
			conds = append(conds, l.Conditions...)
		}
		for _, c := range conds {
			check(where+" condition "+c.Type, c.Message, graph.MaxConditionMessage)
		}
	}
	for _, e := range res.Events {
		check(fmt.Sprintf("Event %s %s/%s %s", e.Kind, e.Namespace, e.Name, e.Reason), e.Message, graph.MaxEventMessage)
	}
	for _, w := range res.Warnings {
		check("warning", w, graph.MaxConditionMessage)
	}
}

// TestMessagesBounded puts a 100,000-byte value in each field
// FuzzHostileRoutes fills, in turn, through every kind of match and
// filter: no message quotes more than graph.MaxQuoted bytes of it, and none
// exceeds the API server's limits.
func TestMessagesBounded(t *testing.T) {
	const n = 100_000
	values := map[string]string{
		"path":       "/" + strings.Repeat("a", n),
		"regex":      strings.Repeat("(a)", n/3),
		"hostname":   strings.Repeat("a", n) + ".example.com",
		"header":     strings.Repeat("h", n),
		"value":      strings.Repeat("v", n) + "\r\n",
		"method":     strings.Repeat("M", n),
		"grpc regex": strings.Repeat("[", n),
	}
	for name, long := range values {
		for choice := range uint8(64) {
			args := []string{"/api", "x-env", "canary", "GET", "/new", "example.com", "pkg.Svc", "Get"}
			for i := range args {
				args[i] = long
				objects := hostileObjects(args[0], args[1], args[2], args[3], args[4], args[5], 80, 1, args[6], args[7], choice)
				res, err := sesame.Translate(objects, sesame.Options{})
				if err != nil {
					t.Fatalf("%s in argument %d, choice %d: %v", name, i, choice, err)
				}
				if len(res.Repairs) > 0 {
					t.Fatalf("%s in argument %d, choice %d: Translate took out messages Envoy would refuse (a bug): %v", name, i, choice, res.Repairs)
				}
				checkMessagesBounded(t, res, long)
				if t.Failed() {
					t.Fatalf("%s in argument %d, choice %d", name, i, choice)
				}
				args[i] = []string{"/api", "x-env", "canary", "GET", "/new", "example.com", "pkg.Svc", "Get"}[i]
			}
			if testing.Short() && choice > 4 {
				break
			}
		}
	}
}

// TestProxyStatusBounded gives an HTTPProxy 1,000 invalid routes: its
// status lists graph.MaxSubConditions errors, the last saying how many more.
func TestProxyStatusBounded(t *testing.T) {
	proxy := &contourv1.HTTPProxy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "proxy"},
		Spec:       contourv1.HTTPProxySpec{VirtualHost: &contourv1.VirtualHost{Fqdn: "example.com"}},
	}
	for i := range 1000 {
		proxy.Spec.Routes = append(proxy.Spec.Routes, contourv1.Route{
			Conditions: []contourv1.MatchCondition{{Prefix: fmt.Sprintf("/%d", i)}, {Header: &contourv1.HeaderMatchCondition{Name: "bad name", Exact: "v"}}},
			Services:   []contourv1.Service{{Name: "svc", Port: 80}},
		})
	}
	res, err := sesame.Translate([]runtime.Object{proxy}, sesame.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkMessagesBounded(t, res, "")
	st := res.Status[0].Status.(*contourv1.HTTPProxyStatus)
	errs := st.Conditions[0].Errors
	if len(errs) != graph.MaxSubConditions || !strings.Contains(errs[len(errs)-1].Message, "and 901 more errors") {
		t.Errorf("%d errors, the last %q; want %d, the last saying 901 more", len(errs), errs[len(errs)-1].Message, graph.MaxSubConditions)
	}
}

// TestGatewayMessagesBounded puts a 100,000-byte value in the fields of a
// Gateway, a TLSRoute and route references that messages name: a
// listener's name and hostname, a parentRef's sectionName, a backendRef's
// name and namespace, a TLSRoute hostname and a certificateRef.
func TestGatewayMessagesBounded(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	for field := range 7 {
		v := func(i int, short string) string {
			if i == field {
				return long
			}
			return short
		}
		gw := &gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"}, Spec: gatewayv1.GatewaySpec{GatewayClassName: "c", Listeners: []gatewayv1.Listener{
			{Name: gatewayv1.SectionName(v(0, "http")), Protocol: gatewayv1.HTTPProtocolType, Port: 80, Hostname: new(gatewayv1.Hostname(v(1, "a.example.com")))},
			{Name: "tls", Protocol: gatewayv1.TLSProtocolType, Port: 443, TLS: &gatewayv1.ListenerTLSConfig{Mode: new(gatewayv1.TLSModePassthrough)}},
			{Name: "https", Protocol: gatewayv1.HTTPSProtocolType, Port: 8443, TLS: &gatewayv1.ListenerTLSConfig{CertificateRefs: []gatewayv1.SecretObjectReference{{Name: gatewayv1.ObjectName(v(6, "missing"))}}}},
		}}}
		route := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"}, Spec: gatewayv1.HTTPRouteSpec{
			CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "gw", SectionName: new(gatewayv1.SectionName(v(2, "http")))}}},
			Rules: []gatewayv1.HTTPRouteRule{{BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: gatewayv1.BackendRef{BackendObjectReference: gatewayv1.BackendObjectReference{
				Name: gatewayv1.ObjectName(v(3, "svc")), Namespace: new(gatewayv1.Namespace(v(4, "other"))), Port: new(gatewayv1.PortNumber(80)),
			}}}}}},
		}}
		tls := &gatewayv1.TLSRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "t"}, Spec: gatewayv1.TLSRouteSpec{
			CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "gw"}}},
			Hostnames:       []gatewayv1.Hostname{gatewayv1.Hostname(v(5, "t.example.com"))},
			Rules:           []gatewayv1.TLSRouteRule{{BackendRefs: []gatewayv1.BackendRef{{BackendObjectReference: gatewayv1.BackendObjectReference{Name: "svc", Port: new(gatewayv1.PortNumber(80))}}}}},
		}}
		objects := []runtime.Object{
			&gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName}},
			gw, route, tls,
		}
		res, err := sesame.Translate(objects, sesame.Options{})
		if err != nil {
			t.Fatalf("field %d: %v", field, err)
		}
		if len(res.Repairs) > 0 {
			t.Fatalf("field %d: Translate took out messages Envoy would refuse (a bug): %v", field, res.Repairs)
		}
		checkMessagesBounded(t, res, long)
		if t.Failed() {
			t.Fatalf("field %d", field)
		}
	}
}

// TestMessagesCutAtTheLimits makes messages longer than the API's limits out
// of many short values, each quoted whole: an HTTPRoute with 300 rules whose
// regular expressions are invalid (so that Accepted lists them all), and an
// Ingress with 40 hosts. The condition message is cut at graph.MaxConditionMessage, the Event at
// graph.MaxEventMessage, each saying so.
func TestMessagesCutAtTheLimits(t *testing.T) {
	regex := gatewayv1.PathMatchRegularExpression
	route := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"}, Spec: gatewayv1.HTTPRouteSpec{
		CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "gw"}}},
	}}
	for i := range 300 {
		route.Spec.Rules = append(route.Spec.Rules, gatewayv1.HTTPRouteRule{Matches: []gatewayv1.HTTPRouteMatch{{
			Path: &gatewayv1.HTTPPathMatch{Type: &regex, Value: new(fmt.Sprintf("/%d/%s(", i, strings.Repeat("a", 100)))},
		}}})
	}
	ingress := &networkingv1.Ingress{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "i"}}
	for i := range 40 {
		ingress.Spec.Rules = append(ingress.Spec.Rules, networkingv1.IngressRule{Host: fmt.Sprintf("host-%d.%s.example.com", i, strings.Repeat("b", 40))})
	}
	objects := []runtime.Object{
		&gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName}},
		&gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"}, Spec: gatewayv1.GatewaySpec{GatewayClassName: "c", Listeners: []gatewayv1.Listener{
			{Name: "http", Protocol: gatewayv1.HTTPProtocolType, Port: 80},
		}}},
		route, ingress,
	}
	res, err := sesame.Translate(objects, sesame.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkMessagesBounded(t, res, "")
	cut := func(msg string) bool { return strings.Contains(msg, "[message cut: ") }
	found := false
	for _, u := range res.Status {
		if st, ok := u.Status.(*gatewayv1.HTTPRouteStatus); ok {
			for _, c := range st.Parents[0].Conditions {
				if c.Type == "Accepted" && cut(c.Message) && len(c.Message) > graph.MaxConditionMessage-100 {
					found = true
				}
			}
		}
	}
	if !found {
		t.Errorf("no Accepted message cut at %d bytes", graph.MaxConditionMessage)
	}
	found = false
	for _, e := range res.Events {
		if e.Reason == "Translated" && cut(e.Message) {
			found = true
		}
	}
	if !found {
		t.Errorf("no Translated Event cut at %d bytes: %v", graph.MaxEventMessage, res.Events)
	}
}
