package provision

import (
	"bytes"
	"encoding/json"
	"net/netip"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// Where a fleet's pods find the xDS TLS Secret and the SDS files that
// point Envoy at it. Envoy reads the certificates through SDS files, not
// inline, so that it reloads them when the kubelet swaps the Secret's
// files (the watched directory): certificates rotate without restarts.
const (
	xdsCertDir         = "/certs"
	xdsCertificateName = "xds-certificate"
	xdsValidationName  = "xds-validation"
)

// XDSFiles are the SDS files of a fleet whose xDS connection uses TLS, by
// their key in the bootstrap ConfigMap (mounted at /config): each holds a
// DiscoveryResponse with one Secret, the client certificate and the
// validation context, whose data are files of the mounted Secret.
func XDSFiles(xds v1alpha1.XDSServer) map[string]*discoveryv3.DiscoveryResponse {
	if xds.TLS == nil {
		return nil
	}
	watched := &corev3.WatchedDirectory{Path: xdsCertDir}
	file := func(name string) *corev3.DataSource {
		return &corev3.DataSource{Specifier: &corev3.DataSource_Filename{Filename: xdsCertDir + "/" + name}}
	}
	san := &tlsv3.SubjectAltNameMatcher{SanType: tlsv3.SubjectAltNameMatcher_DNS, Matcher: &matcherv3.StringMatcher{
		MatchPattern: &matcherv3.StringMatcher_Exact{Exact: xdsServerName(xds)},
	}}
	if _, err := netip.ParseAddr(xdsServerName(xds)); err == nil {
		san.SanType = tlsv3.SubjectAltNameMatcher_IP_ADDRESS
	}
	response := func(s *tlsv3.Secret) *discoveryv3.DiscoveryResponse {
		return &discoveryv3.DiscoveryResponse{TypeUrl: "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret", Resources: []*anypb.Any{mustAny(s)}}
	}
	return map[string]*discoveryv3.DiscoveryResponse{
		xdsCertificateName + ".json": response(&tlsv3.Secret{Name: xdsCertificateName, Type: &tlsv3.Secret_TlsCertificate{TlsCertificate: &tlsv3.TlsCertificate{
			CertificateChain: file("tls.crt"), PrivateKey: file("tls.key"), WatchedDirectory: watched,
		}}}),
		xdsValidationName + ".json": response(&tlsv3.Secret{Name: xdsValidationName, Type: &tlsv3.Secret_ValidationContext{ValidationContext: &tlsv3.CertificateValidationContext{
			TrustedCa: file("ca.crt"), MatchTypedSubjectAltNames: []*tlsv3.SubjectAltNameMatcher{san}, WatchedDirectory: watched,
		}}}),
	}
}

// xdsServerName is the name the xDS server's certificate must carry.
func xdsServerName(xds v1alpha1.XDSServer) string {
	if xds.TLS != nil && xds.TLS.ServerName != "" {
		return xds.TLS.ServerName
	}
	return xds.Address
}

// xdsTransportSocket is the TLS of the xDS cluster: the server's name as
// SNI, TLS 1.2 at least, and the certificate and validation context from
// the SDS files (XDSFiles), or nil for plaintext.
func xdsTransportSocket(xds v1alpha1.XDSServer) *corev3.TransportSocket {
	if xds.TLS == nil {
		return nil
	}
	sds := func(name string) *tlsv3.SdsSecretConfig {
		return &tlsv3.SdsSecretConfig{Name: name, SdsConfig: &corev3.ConfigSource{
			ResourceApiVersion: corev3.ApiVersion_V3,
			ConfigSourceSpecifier: &corev3.ConfigSource_PathConfigSource{PathConfigSource: &corev3.PathConfigSource{
				Path: "/config/" + name + ".json", WatchedDirectory: &corev3.WatchedDirectory{Path: "/config"},
			}},
		}}
	}
	ctx := &tlsv3.UpstreamTlsContext{
		Sni: xdsServerName(xds),
		CommonTlsContext: &tlsv3.CommonTlsContext{
			TlsParams:                      &tlsv3.TlsParameters{TlsMinimumProtocolVersion: tlsv3.TlsParameters_TLSv1_2},
			TlsCertificateSdsSecretConfigs: []*tlsv3.SdsSecretConfig{sds(xdsCertificateName)},
			ValidationContextType:          &tlsv3.CommonTlsContext_ValidationContextSdsSecretConfig{ValidationContextSdsSecretConfig: sds(xdsValidationName)},
			AlpnProtocols:                  []string{"h2"},
		},
	}
	return &corev3.TransportSocket{Name: "envoy.transport_sockets.tls", ConfigType: &corev3.TransportSocket_TypedConfig{TypedConfig: mustAny(ctx)}}
}

// xdsFilesJSON are XDSFiles as the ConfigMap holds them.
func xdsFilesJSON(xds v1alpha1.XDSServer) map[string]string {
	out := map[string]string{}
	for name, resp := range XDSFiles(xds) {
		data, err := protojson.Marshal(resp)
		if err != nil {
			panic("provision: " + err.Error()) // every type is linked in: a programmer error
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, data, "", "  "); err != nil {
			panic("provision: " + err.Error())
		}
		out[name] = indented.String() + "\n"
	}
	return out
}
