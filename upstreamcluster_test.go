package sesame_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/render"
)

// testPEM reads a file of testdata/certs.
func testPEM(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/certs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// upstreamCluster is a servable UpstreamCluster: one server, the
// example.com certificate, one policy for every resource request.
func upstreamCluster(t *testing.T, name string) *v1alpha1.UpstreamCluster {
	t.Helper()
	uc := &v1alpha1.UpstreamCluster{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.GroupVersion.String(), Kind: v1alpha1.UpstreamClusterKind},
		ObjectMeta: metav1.ObjectMeta{Name: name, Generation: 1},
	}
	uc.Spec.Servers = []v1alpha1.UpstreamClusterServer{{Endpoint: "https://10.0.0.1:6443"}}
	uc.Spec.SecureServing = v1alpha1.SecureServing{CertData: testPEM(t, "example-com.crt"), KeyData: testPEM(t, "example-com.key")}
	uc.Spec.DispatchPolicies = []v1alpha1.DispatchPolicy{{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}}}
	return uc
}

// upstreamConditions returns the status conditions of the UpstreamCluster
// name in res, by type.
func upstreamConditions(t *testing.T, res *sesame.Result, name string) map[string]metav1.Condition {
	t.Helper()
	for _, u := range res.Status {
		if u.Kind == v1alpha1.UpstreamClusterKind && u.Name == name {
			out := map[string]metav1.Condition{}
			for _, c := range u.Status.(*v1alpha1.UpstreamClusterStatus).Conditions {
				out[c.Type] = c
			}
			return out
		}
	}
	t.Fatalf("no status for UpstreamCluster %s", name)
	return nil
}

// translateValid translates objects and checks what every translation must
// give: valid, consistent resources, and nothing repaired.
func translateValid(t *testing.T, objects []runtime.Object, opts sesame.Options) *sesame.Result {
	t.Helper()
	res, err := sesame.Translate(objects, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkEnvoy(t, res)
	if len(res.Repairs) > 0 {
		t.Fatalf("repairs: %v", res.Repairs)
	}
	return res
}

// TestUpstreamClusterDuplicates: of UpstreamClusters with one name, which a
// library user may give, the older is kept (creationTimestamp, then UID,
// then content), whatever the order, with one warning.
func TestUpstreamClusterDuplicates(t *testing.T) {
	older, newer := upstreamCluster(t, "a.example.com"), upstreamCluster(t, "a.example.com")
	older.CreationTimestamp = metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	newer.CreationTimestamp = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	newer.Spec.Servers[0].Endpoint = "https://10.9.9.9:6443"
	sameAgeA, sameAgeB := older.DeepCopy(), newer.DeepCopy()
	sameAgeB.CreationTimestamp, sameAgeA.UID, sameAgeB.UID = sameAgeA.CreationTimestamp, "b", "a"
	twinA, twinB := older.DeepCopy(), newer.DeepCopy()
	twinB.CreationTimestamp = twinA.CreationTimestamp
	for _, tt := range []struct {
		name       string
		a, b       *v1alpha1.UpstreamCluster
		wantServer string
	}{
		{"older wins", older, newer, "10.0.0.1"},
		{"same age: lower UID wins", sameAgeA, sameAgeB, "10.9.9.9"},
		{"same age and UID: the content decides", twinA, twinB, "10.0.0.1"},
	} {
		var outputs [][]byte
		for _, objects := range [][]runtime.Object{{tt.a, tt.b}, {tt.b, tt.a}} {
			res := translateValid(t, objects, sesame.Options{Now: goldenNow})
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "UpstreamCluster a.example.com is given 2 times") {
				t.Errorf("%s: warnings %q", tt.name, res.Warnings)
			}
			if n := len(res.Status); n != 1 {
				t.Errorf("%s: %d status entries, want 1", tt.name, n)
			}
			if got := res.XDS.Clusters[0].GetLoadAssignment().GetEndpoints()[0].GetLbEndpoints()[0].GetEndpoint().GetHostname(); got != tt.wantServer {
				t.Errorf("%s: server %s is used, want %s", tt.name, got, tt.wantServer)
			}
			out, err := render.Document(res, render.YAML)
			if err != nil {
				t.Fatal(err)
			}
			outputs = append(outputs, out)
		}
		if string(outputs[0]) != string(outputs[1]) {
			t.Errorf("%s: the order of the objects changes the output", tt.name)
		}
	}
}

// TestUpstreamClusterNotProgrammed: an UpstreamCluster that cannot serve
// is Accepted but not Programmed, says why, and has nothing in the
// configuration; a servable one beside it still is.
func TestUpstreamClusterNotProgrammed(t *testing.T) {
	no, yes := false, true
	for _, tt := range []struct {
		name   string
		change func(*v1alpha1.UpstreamCluster)
		reason string
		says   string
	}{
		{"no serving certificate", func(uc *v1alpha1.UpstreamCluster) { uc.Spec.SecureServing = v1alpha1.SecureServing{} },
			v1alpha1.ReasonInvalidCertificate, "spec.secureServing needs certData and keyData"},
		{"a key of another certificate", func(uc *v1alpha1.UpstreamCluster) { uc.Spec.SecureServing.KeyData = testPEM(t, "other-net.key") },
			v1alpha1.ReasonInvalidCertificate, "spec.secureServing.certData and keyData are not a PEM certificate and its private key: tls: private key does not match public key"},
		{"a client CA that is not PEM", func(uc *v1alpha1.UpstreamCluster) { uc.Spec.SecureServing.ClientCAData = []byte("ca") },
			v1alpha1.ReasonInvalidCertificate, "spec.secureServing.clientCAData is not a bundle of PEM certificates"},
		{"a client certificate without its key", func(uc *v1alpha1.UpstreamCluster) { uc.Spec.ClientConfig.CertData = testPEM(t, "other-net.crt") },
			v1alpha1.ReasonInvalidCertificate, "spec.clientConfig.certData and keyData are not"},
		{"a servers' CA that is not PEM", func(uc *v1alpha1.UpstreamCluster) { uc.Spec.ClientConfig.CAData = []byte("ca") },
			v1alpha1.ReasonInvalidCertificate, "spec.clientConfig.caData is not a bundle of PEM certificates"},
		{"no servers", func(uc *v1alpha1.UpstreamCluster) { uc.Spec.Servers = nil },
			v1alpha1.ReasonNoServers, "spec.servers has 0 (0 disabled, 0 whose endpoint is not https://host:port)"},
		{"no usable server", func(uc *v1alpha1.UpstreamCluster) {
			uc.Spec.Servers = []v1alpha1.UpstreamClusterServer{{Endpoint: "https://10.0.0.1:6443", Disabled: &yes}, {Endpoint: "https://<ip>:<port>", Disabled: &no}}
		}, v1alpha1.ReasonNoServers, "spec.servers has 2 (1 disabled, 1 whose endpoint is not https://host:port)"},
	} {
		bad := upstreamCluster(t, "bad.example.com")
		tt.change(bad)
		res := translateValid(t, []runtime.Object{bad, upstreamCluster(t, "good.example.com")}, sesame.Options{Now: goldenNow})
		conds := upstreamConditions(t, res, "bad.example.com")
		if c := conds[v1alpha1.ConditionAccepted]; c.Status != metav1.ConditionTrue {
			t.Errorf("%s: Accepted %s", tt.name, c.Status)
		}
		if c := conds[v1alpha1.ConditionProgrammed]; c.Status != metav1.ConditionFalse || c.Reason != tt.reason || !strings.Contains(c.Message, tt.says) {
			t.Errorf("%s: Programmed %s %s %q, want False %s saying %q", tt.name, c.Status, c.Reason, c.Message, tt.reason, tt.says)
		}
		if c := upstreamConditions(t, res, "good.example.com")[v1alpha1.ConditionProgrammed]; c.Status != metav1.ConditionTrue {
			t.Errorf("%s: the servable cluster is not Programmed: %s", tt.name, c.Message)
		}
		if l := res.XDS.Listeners; len(l) != 1 || len(l[0].FilterChains) != 1 || l[0].FilterChains[0].GetName() != "upstreamcluster/good.example.com" {
			t.Errorf("%s: listeners %v, want the good cluster's chain alone", tt.name, l)
		}
		for _, r := range res.XDS.Routes {
			if strings.Contains(r.GetName(), "bad.example.com") {
				t.Errorf("%s: route table %s is served", tt.name, r.GetName())
			}
		}
	}
	// Nothing servable: no listener at all.
	bad := upstreamCluster(t, "bad.example.com")
	bad.Spec.Servers = nil
	if res := translateValid(t, []runtime.Object{bad}, sesame.Options{}); len(res.XDS.Listeners)+len(res.XDS.Routes)+len(res.XDS.Clusters)+len(res.XDS.Secrets) > 0 {
		t.Errorf("resources for a cluster that cannot serve: %v", res.XDS)
	}
}

// TestUpstreamClusterPort: Options.UpstreamClusterPort places the listener;
// 0 is 443, a value that is not a port an error. A Gateway listener on the
// port takes it.
func TestUpstreamClusterPort(t *testing.T) {
	uc := upstreamCluster(t, "a.example.com")
	for _, tt := range []struct {
		port, want int32
	}{{0, 443}, {6443, 6443}, {65535, 65535}} {
		res := translateValid(t, []runtime.Object{uc}, sesame.Options{UpstreamClusterPort: tt.port})
		l := res.XDS.Listeners[0]
		if got := int32(l.GetAddress().GetSocketAddress().GetPortValue()); got != tt.want || l.GetName() != sesame.UpstreamClusterListenerName(tt.want) {
			t.Errorf("UpstreamClusterPort %d: listener %s on %d, want %s on %d", tt.port, l.GetName(), got, sesame.UpstreamClusterListenerName(tt.want), tt.want)
		}
	}
	for _, port := range []int32{-1, 65536} {
		if _, err := sesame.Translate(nil, sesame.Options{UpstreamClusterPort: port}); err == nil || !strings.Contains(err.Error(), "UpstreamClusterPort") {
			t.Errorf("UpstreamClusterPort %d: error %v", port, err)
		}
	}

	// A Gateway's HTTP listener on 80, and the clusters moved there.
	class := &gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "sesame"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: "projectsesame.io/gateway-controller"}}
	gw := &gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: gatewayv1.GatewaySpec{
		GatewayClassName: "sesame", Listeners: []gatewayv1.Listener{{Name: "http", Port: 80, Protocol: gatewayv1.HTTPProtocolType}},
	}}
	res := translateValid(t, []runtime.Object{class, gw, uc}, sesame.Options{UpstreamClusterPort: 80})
	c := upstreamConditions(t, res, "a.example.com")[v1alpha1.ConditionProgrammed]
	if c.Reason != v1alpha1.ReasonPortInUse || !strings.Contains(c.Message, "gateway/default/web/80") || !strings.Contains(c.Message, "--upstreamcluster-port") {
		t.Errorf("Programmed %s %q", c.Reason, c.Message)
	}
	if len(res.XDS.Listeners) != 1 || res.XDS.Listeners[0].GetName() != "gateway/default/web/80" {
		t.Errorf("listeners %v, want the Gateway's alone", res.XDS.Listeners)
	}

	// Beside the Gateway, on 443: ForGateway gives the clusters too.
	res = translateValid(t, []runtime.Object{class, gw, uc}, sesame.Options{})
	part := res.ForGateway(types.NamespacedName{Namespace: "default", Name: "web"})
	var names []string
	for _, l := range part.Listeners {
		names = append(names, l.GetName())
	}
	if !slices.Equal(names, []string{"gateway/default/web/80", "upstreamcluster/port/443"}) || len(part.Secrets) != 1 || len(part.Clusters) != 1 {
		t.Errorf("ForGateway: listeners %v, %d secrets, %d clusters", names, len(part.Secrets), len(part.Clusters))
	}
}

// TestUpstreamClusterMessagesBounded: however many notes envoy.Translate
// gives, Programmed lists at most graph.MaxSubConditions and stays within
// graph.MaxConditionMessage.
func TestUpstreamClusterMessagesBounded(t *testing.T) {
	uc := upstreamCluster(t, "a.example.com")
	for i := range 300 {
		uc.Spec.Servers = append(uc.Spec.Servers, v1alpha1.UpstreamClusterServer{Endpoint: fmt.Sprintf("http://10.1.%d.%d:6443/%s", i/256, i%256, strings.Repeat("x", 100))})
	}
	res := translateValid(t, []runtime.Object{uc}, sesame.Options{})
	c := upstreamConditions(t, res, "a.example.com")[v1alpha1.ConditionProgrammed]
	if c.Status != metav1.ConditionTrue || len(c.Message) > graph.MaxConditionMessage || !strings.Contains(c.Message, "and 200 more") {
		t.Errorf("Programmed %s, %d bytes: ...%s", c.Status, len(c.Message), c.Message[max(0, len(c.Message)-200):])
	}
}

// TestUpstreamClusterRepair: a message of an UpstreamCluster's that Envoy
// would refuse, which no input is known to cause, is taken out and the
// cluster's Programmed condition says so; for the shared listener, every
// cluster on it is told.
func TestUpstreamClusterRepair(t *testing.T) {
	objects := []runtime.Object{upstreamCluster(t, "a.example.com"), upstreamCluster(t, "b.example.com")}
	res := translateValid(t, objects, sesame.Options{Now: goldenNow})
	res.XDS.Clusters[0].ConnectTimeout = durationpb.New(-time.Second) // a.example.com's
	if err := sesame.Repair(res); err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %q; the status should say it", res.Warnings)
	}
	if c := upstreamConditions(t, res, "a.example.com")[v1alpha1.ConditionProgrammed]; c.Reason != "InternalError" || !strings.Contains(c.Message, "upstreamcluster/a.example.com/subset/0") {
		t.Errorf("a.example.com: Programmed %s %q", c.Reason, c.Message)
	}
	if c := upstreamConditions(t, res, "b.example.com")[v1alpha1.ConditionProgrammed]; c.Status != metav1.ConditionTrue {
		t.Errorf("b.example.com: Programmed %s %q", c.Status, c.Message)
	}

	res = translateValid(t, objects, sesame.Options{Now: goldenNow})
	res.XDS.Listeners[0].ListenerFilters[0].Name = ""
	if err := sesame.Repair(res); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.example.com", "b.example.com"} {
		if c := upstreamConditions(t, res, name)[v1alpha1.ConditionProgrammed]; c.Reason != "InternalError" || !strings.Contains(c.Message, "upstreamcluster/port/443") {
			t.Errorf("%s: Programmed %s %q", name, c.Reason, c.Message)
		}
	}
}
