package refs

import (
	"bytes"
	"encoding/pem"
	"net/netip"
	"os"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

func TestEndpoints(t *testing.T) {
	slice := func(name string, family discoveryv1.AddressType, port *discoveryv1.EndpointPort, eps ...discoveryv1.Endpoint) *discoveryv1.EndpointSlice {
		return &discoveryv1.EndpointSlice{
			ObjectMeta:  metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{discoveryv1.LabelServiceName: "web"}},
			AddressType: family,
			Ports:       []discoveryv1.EndpointPort{*port},
			Endpoints:   eps,
		}
	}
	http := &discoveryv1.EndpointPort{Name: new("http"), Port: new(int32(8080))}
	metrics := &discoveryv1.EndpointPort{Name: new("metrics"), Port: new(int32(9090))}
	udp := &discoveryv1.EndpointPort{Name: new("http"), Port: new(int32(8080)), Protocol: new(corev1.ProtocolUDP)}
	badPort := &discoveryv1.EndpointPort{Name: new("http"), Port: new(int32(70000))}
	ep := func(ready *bool, addrs ...string) discoveryv1.Endpoint {
		return discoveryv1.Endpoint{Addresses: addrs, Conditions: discoveryv1.EndpointConditions{Ready: ready}}
	}
	web := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"}}
	in := &Input{Services: []*corev1.Service{web}, EndpointSlices: []*discoveryv1.EndpointSlice{
		slice("a", discoveryv1.AddressTypeIPv4, http, ep(nil, "10.0.0.2"), ep(new(true), "10.0.0.1"), ep(new(false), "10.0.0.9")),
		slice("b", discoveryv1.AddressTypeIPv4, http, ep(nil, "10.0.0.1")),                // duplicate address
		slice("c", discoveryv1.AddressTypeIPv4, metrics, ep(nil, "10.0.0.3")),             // another port
		slice("d", discoveryv1.AddressTypeIPv6, http, ep(nil, "fd00::1", "fe80::1%eth0")), // zoned address dropped
		slice("e", discoveryv1.AddressTypeFQDN, http, ep(nil, "web.example.com")),         // FQDN dropped
		slice("f", discoveryv1.AddressTypeIPv4, udp, ep(nil, "10.0.0.4")),                 // UDP port
		slice("g", discoveryv1.AddressTypeIPv4, badPort, ep(nil, "10.0.0.5")),             // port out of range
		slice("h", discoveryv1.AddressTypeIPv4, http, ep(nil, "not-an-ip")),               // hostile address
	}}
	got := newIndex(in).Endpoints(&graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "web"}, Port: 80, PortName: "http"})
	want := []graph.Endpoint{{Address: "10.0.0.1", Port: 8080}, {Address: "10.0.0.2", Port: 8080}, {Address: "fd00::1", Port: 8080}}
	if !slices.Equal(got, want) {
		t.Errorf("endpoints = %v, want %v", got, want)
	}
}

func TestCanonicalAddress(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"10.0.0.1", "10.0.0.1", true},
		{"2001:db8::1", "2001:db8::1", true},
		{"2001:DB8:0::1", "2001:db8::1", true}, // rewritten to the canonical form
		{"::ffff:10.0.0.1", "::ffff:10.0.0.1", true},
		{"fe80::1%eth0", "", false}, // a zone names the node's interface
		{"10.0.0.256", "", false},
		{"example.com", "", false},
		{"", "", false},
		{"0.0.0.0", "0.0.0.0", true},
		{"255.255.255.255", "255.255.255.255", true},
		{"010.0.0.1", "", false}, // netip refuses leading zeros
		{"10.0.0", "", false},
		{"10.0.0.1.", "", false},
		{"10..0.1", "", false},
		{"1000.0.0.1", "", false},
	} {
		got, ok := canonicalAddress(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("canonicalAddress(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzCanonicalAddress: canonicalAddress's shortcut for IPv4 says what
// netip's parsing and writing say.
func FuzzCanonicalAddress(f *testing.F) {
	for _, s := range []string{"10.0.0.1", "0.0.0.0", "01.2.3.4", "1.2.3", "256.1.1.1", "::1", "1.2.3.4%eth0", "1.2.3.04"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		got, ok := canonicalAddress(addr)
		want, wantOK := "", false
		if ip, err := netip.ParseAddr(addr); err == nil && ip.Zone() == "" {
			want, wantOK = ip.String(), true
		}
		if got != want || ok != wantOK {
			t.Errorf("canonicalAddress(%q) = %q, %v; netip says %q, %v", addr, got, ok, want, wantOK)
		}
	})
}

// FuzzCertificateChain: whatever tls.crt holds, the chain holds only
// CERTIFICATE blocks, each of the input's, in order, and the other blocks
// are all named.
func FuzzCertificateChain(f *testing.F) {
	f.Add([]byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n-----BEGIN EC PRIVATE KEY-----\nBBBB\n-----END EC PRIVATE KEY-----\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		chain, others := certificateChain(data)
		var in, out []*pem.Block
		for rest := data; ; {
			var b *pem.Block
			if b, rest = pem.Decode(rest); b == nil {
				break
			}
			in = append(in, b)
		}
		for rest := chain; ; {
			var b *pem.Block
			if b, rest = pem.Decode(rest); b == nil {
				break
			}
			out = append(out, b)
		}
		certs := 0
		for _, b := range in {
			if b.Type == "CERTIFICATE" {
				if certs >= len(out) || !bytes.Equal(out[certs].Bytes, b.Bytes) {
					t.Fatalf("certificate %d is not in the chain in order", certs)
				}
				certs++
			}
		}
		if certs != len(out) || certs+len(others) != len(in) {
			t.Fatalf("%d blocks in, %d certificates, %d in the chain, %d others", len(in), certs, len(out), len(others))
		}
	})
}

// TestCertificateChainAlone: a chain of certificates alone is used byte
// for byte.
func TestCertificateChainAlone(t *testing.T) {
	cert, err := os.ReadFile("../../../testdata/certs/example-com.crt")
	if err != nil {
		t.Fatal(err)
	}
	if chain, others := certificateChain(cert); !bytes.Equal(chain, cert) || others != nil {
		t.Errorf("certificateChain(cert) = %q, %v", chain, others)
	}
}
