package provision_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/provision"
)

// TestBootstrapValid: the bootstrap passes ValidateAll, with and without
// the overload manager a memory limit brings.
func TestBootstrapValid(t *testing.T) {
	gw := types.NamespacedName{Namespace: "default", Name: "public"}
	limited := &v1alpha1.EnvoyConfig{Resources: &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")}}}
	for _, envoy := range []*v1alpha1.EnvoyConfig{nil, {}, limited} {
		b := provision.Bootstrap(gw, v1alpha1.XDSServer{Address: "sesame.projectsesame", Port: 8001}, envoy)
		if err := b.ValidateAll(); err != nil {
			t.Errorf("%+v: %v", envoy, err)
		}
		if (b.GetOverloadManager() != nil) != (envoy == limited) {
			t.Errorf("%+v: overload manager %v", envoy, b.GetOverloadManager())
		}
	}
	heap := provision.Bootstrap(gw, v1alpha1.XDSServer{}, limited).GetOverloadManager().GetResourceMonitors()[0]
	if heap.GetName() != "envoy.resource_monitors.fixed_heap" {
		t.Errorf("resource monitor %q", heap.GetName())
	}
}

// TestBootstrapNodeFindsSnapshot: a snapshot cache that holds a
// Gateway's part of the translation under NodeID, as a control plane
// keys it, gives it to an Envoy started with the Gateway's bootstrap.
func TestBootstrapNodeFindsSnapshot(t *testing.T) {
	f, err := os.Open("../testdata/examples/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	objects, _, err := manifest.Decode("quickstart.yaml", f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	gw := types.NamespacedName{Namespace: "default", Name: "public"}
	snap, err := res.ForGateway(gw).Snapshot("1")
	if err != nil {
		t.Fatal(err)
	}
	cache := cachev3.NewSnapshotCache(true, cachev3.IDHash{}, nil)
	if err := cache.SetSnapshot(context.Background(), provision.NodeID(gw), snap); err != nil {
		t.Fatal(err)
	}
	node := provision.Bootstrap(gw, v1alpha1.XDSServer{}, nil).GetNode()
	got, err := cache.GetSnapshot(cachev3.IDHash{}.ID(&corev3.Node{Id: node.GetId(), Cluster: node.GetCluster()}))
	if err != nil {
		t.Fatalf("the bootstrap's node %q finds no snapshot: %v", node.GetId(), err)
	}
	if got.GetVersion("type.googleapis.com/envoy.config.listener.v3.Listener") != "1" || len(res.ForGateway(gw).Listeners) == 0 {
		t.Errorf("snapshot %v", got)
	}
}

// TestXDSTLS: with xdsServer.tls the xDS cluster speaks TLS with the
// server's name as SNI, taking its certificate and validation context
// from the SDS files XDSFiles gives the ConfigMap, whose Secrets read the
// mounted Secret's files and verify the server's name; each passes
// Envoy's validation. Without it, the cluster is plaintext and there are
// no files.
func TestXDSTLS(t *testing.T) {
	gw := types.NamespacedName{Namespace: "default", Name: "public"}
	plain := v1alpha1.XDSServer{Address: "sesame.projectsesame", Port: 8001}
	if ts := provision.Bootstrap(gw, plain, nil).GetStaticResources().GetClusters()[0].GetTransportSocket(); ts != nil || provision.XDSFiles(plain) != nil {
		t.Errorf("plaintext has TLS: %v", ts)
	}
	for _, tt := range []struct {
		xds     v1alpha1.XDSServer
		name    string
		sanType tlsv3.SubjectAltNameMatcher_SanType
	}{
		{v1alpha1.XDSServer{Address: "sesame.projectsesame", Port: 8001, TLS: &v1alpha1.XDSTLS{SecretName: "envoy-xds"}}, "sesame.projectsesame", tlsv3.SubjectAltNameMatcher_DNS},
		{v1alpha1.XDSServer{Address: "10.0.0.5", Port: 8001, TLS: &v1alpha1.XDSTLS{SecretName: "envoy-xds", ServerName: "xds.internal"}}, "xds.internal", tlsv3.SubjectAltNameMatcher_DNS},
		{v1alpha1.XDSServer{Address: "10.0.0.5", Port: 8001, TLS: &v1alpha1.XDSTLS{SecretName: "envoy-xds"}}, "10.0.0.5", tlsv3.SubjectAltNameMatcher_IP_ADDRESS},
	} {
		b := provision.Bootstrap(gw, tt.xds, nil)
		if err := b.ValidateAll(); err != nil {
			t.Fatal(err)
		}
		var ctx tlsv3.UpstreamTlsContext
		if err := b.GetStaticResources().GetClusters()[0].GetTransportSocket().GetTypedConfig().UnmarshalTo(&ctx); err != nil {
			t.Fatal(err)
		}
		common := ctx.GetCommonTlsContext()
		if ctx.GetSni() != tt.name || len(common.GetTlsCertificateSdsSecretConfigs()) != 1 || common.GetValidationContextSdsSecretConfig() == nil {
			t.Fatalf("TLS context %v", &ctx)
		}
		files := provision.XDSFiles(tt.xds)
		for _, sds := range []*tlsv3.SdsSecretConfig{common.GetTlsCertificateSdsSecretConfigs()[0], common.GetValidationContextSdsSecretConfig()} {
			path := sds.GetSdsConfig().GetPathConfigSource().GetPath()
			resp := files[strings.TrimPrefix(path, "/config/")]
			if resp == nil || len(resp.GetResources()) != 1 {
				t.Fatalf("no SDS file for %s among %v", path, files)
			}
			var secret tlsv3.Secret
			if err := resp.GetResources()[0].UnmarshalTo(&secret); err != nil {
				t.Fatal(err)
			}
			if err := secret.ValidateAll(); err != nil || secret.GetName() != sds.GetName() {
				t.Fatalf("%s: secret %q for %q: %v", path, secret.GetName(), sds.GetName(), err)
			}
			if v := secret.GetValidationContext(); v != nil {
				san := v.GetMatchTypedSubjectAltNames()
				if len(san) != 1 || san[0].GetSanType() != tt.sanType || san[0].GetMatcher().GetExact() != tt.name || v.GetTrustedCa().GetFilename() != "/certs/ca.crt" {
					t.Errorf("validation context %v", v)
				}
			} else if secret.GetTlsCertificate().GetPrivateKey().GetFilename() != "/certs/tls.key" || secret.GetTlsCertificate().GetWatchedDirectory().GetPath() != "/certs" {
				t.Errorf("certificate %v", secret.GetTlsCertificate())
			}
		}
	}
}
