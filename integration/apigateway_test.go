package integration_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch/gateway"
)

// certs is a CA and the certificates it signs, made for the test.
type certs struct {
	ca    *x509.Certificate
	caKey *ecdsa.PrivateKey
	caPEM []byte
}

func newCA(t *testing.T) *certs {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(der)
	return &certs{ca: ca, caKey: key, caPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue makes a certificate for subject: a server's for 127.0.0.1 or a
// client's; it returns the certificate and key in PEM.
func (c *certs) issue(t *testing.T, subject pkix.Name, server bool) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: subject, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if server {
		tmpl.ExtKeyUsage, tmpl.IPAddresses = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.ca, &key.PublicKey, c.caKey)
	if err != nil {
		t.Fatal(err)
	}
	kd, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kd})
}

// apiServer plays a kube-apiserver over TLS and HTTP/2: a pod web in
// default, listed, got, and watched (two events, then the stream stays
// open until the client leaves); it records what it receives.
type apiServer struct {
	*httptest.Server
	name string
	mu   sync.Mutex
	got  []string // "PROTO METHOD URI user=... groups=... auth=..."
}

const podJSON = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","resourceVersion":"%d"}}`

func newAPIServer(t *testing.T, name string) *apiServer {
	s := &apiServer{name: name}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, fmt.Sprintf("%s %s %s user=%s groups=%s auth=%s", r.Proto, r.Method, r.URL.RequestURI(),
			r.Header.Get("Impersonate-User"), strings.Join(r.Header.Values("Impersonate-Group"), ","), r.Header.Get("Authorization")))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Served-By", s.name)
		switch {
		case r.URL.Path == "/api/v1/namespaces/default/pods" && r.URL.Query().Get("watch") == "true":
			for i, typ := range []string{"ADDED", "MODIFIED"} {
				fmt.Fprintf(w, `{"type":%q,"object":`+podJSON+"}\n", typ, i+1)
				w.(http.Flusher).Flush()
			}
			<-r.Context().Done()
		case r.URL.Path == "/api/v1/namespaces/default/pods":
			fmt.Fprintf(w, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[`+podJSON+`]}`, 1)
		case r.URL.Path == "/api/v1/namespaces/default/pods/web":
			fmt.Fprintf(w, podJSON, 1)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
		}
	}))
	s.EnableHTTP2 = true
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func (s *apiServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// TestClientGoThroughTheGateway is issue 23's kube-apiserver gateway test:
// client-go, the real client, lists, gets and watches pods through the
// gateway (TLS with a client certificate, HTTP/2), built from an
// UpstreamCluster; the upstreams that play kube-apiservers see the
// policies' servers chosen, the client's identity impersonated, the
// gateway's own token, and HTTP/2; a request no policy serves (a
// Service: the policies serve pods) gets the 500 client-go reads as an
// InternalError.
func TestClientGoThroughTheGateway(t *testing.T) {
	one, two := newAPIServer(t, "one"), newAPIServer(t, "two")
	upstreamCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: one.Certificate().Raw}) // httptest's, both servers'
	uc := &v1alpha1.UpstreamCluster{}
	uc.Name = "api.example.com"
	uc.Spec.Servers = []v1alpha1.UpstreamClusterServer{{Endpoint: one.URL}, {Endpoint: two.URL}}
	uc.Spec.ClientConfig = v1alpha1.ClientConfig{CAData: upstreamCA, BearerToken: []byte("gateway-token")}
	uc.Spec.DispatchPolicies = []v1alpha1.DispatchPolicy{
		{UpstreamSubset: []string{two.URL}, Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"list", "watch"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}},
		{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, APIGroups: []string{""}, Resources: []string{"pods"}}}},
	}
	g, warnings, err := gateway.New(uc, gateway.Options{Authenticator: &gateway.ClientCertificates{}})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("New: %v %v", err, warnings)
	}

	ca := newCA(t)
	serverCert, serverKey := ca.issue(t, pkix.Name{CommonName: "gateway"}, true)
	cert, err := tls.X509KeyPair(serverCert, serverKey)
	if err != nil {
		t.Fatal(err)
	}
	clients := x509.NewCertPool()
	clients.AddCert(ca.ca)
	front := httptest.NewUnstartedServer(g)
	front.EnableHTTP2 = true
	front.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: clients}
	front.StartTLS()
	defer front.Close()

	aliceCert, aliceKey := ca.issue(t, pkix.Name{CommonName: "alice", Organization: []string{"dev"}}, false)
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: front.URL, TLSClientConfig: rest.TLSClientConfig{CAData: ca.caPEM, CertData: aliceCert, KeyData: aliceKey}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pods, err := cs.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	if err != nil || len(pods.Items) != 1 || pods.Items[0].Name != "web" {
		t.Fatalf("list: %v, %v", pods, err)
	}
	pod, err := cs.CoreV1().Pods("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || pod.Name != "web" {
		t.Fatalf("get: %v, %v", pod, err)
	}
	w, err := cs.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ADDED", "MODIFIED"} {
		select {
		case ev := <-w.ResultChan():
			if string(ev.Type) != want {
				t.Fatalf("watch event %s, want %s", ev.Type, want)
			}
		case <-ctx.Done():
			t.Fatalf("no %s event streamed through the gateway", want)
		}
	}
	w.Stop()
	_, err = cs.CoreV1().Services("default").Get(ctx, "web", metav1.GetOptions{}) // no policy serves services
	if !apierrors.IsInternalError(err) || !strings.Contains(err.Error(), "no dispatch policy") {
		t.Errorf("get a service: %v, want the gateway's InternalError", err)
	}

	const as = "user=alice groups=dev,system:authenticated auth=Bearer gateway-token"
	wantOne := []string{"HTTP/2.0 GET /api/v1/namespaces/default/pods/web " + as}
	wantTwo := []string{"HTTP/2.0 GET /api/v1/namespaces/default/pods " + as, "HTTP/2.0 GET /api/v1/namespaces/default/pods?watch=true " + as}
	if got := one.requests(); strings.Join(got, "\n") != strings.Join(wantOne, "\n") {
		t.Errorf("server one received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantOne, "\n"))
	}
	got := two.requests()
	for i := range got { // client-go's query parameters besides watch
		got[i] = strings.Replace(strings.Replace(got[i], "?limit=500", "", 1), "&watch=true", "?watch=true", 1)
	}
	if strings.Join(got, "\n") != strings.Join(wantTwo, "\n") {
		t.Errorf("server two received:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantTwo, "\n"))
	}
}
