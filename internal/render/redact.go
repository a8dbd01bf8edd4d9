package render

import (
	"fmt"
	"slices"

	"github.com/cncf/xds/go/udpa/annotations"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// redacted is what a redacted value of n bytes reads.
func redacted(n int) string {
	return fmt.Sprintf("REDACTED (%d bytes)", n)
}

// redactSecrets returns copies of secrets in which every field Envoy's API
// marks sensitive ((udpa.annotations.sensitive): TlsCertificate's
// private_key, pkcs12 and password, session ticket keys, generic secrets,
// private key provider configs) is redacted. The secrets themselves, which
// the Result shares, are left alone.
func redactSecrets(secrets []*tlsv3.Secret) []*tlsv3.Secret {
	out := make([]*tlsv3.Secret, len(secrets))
	for i, s := range secrets {
		c := proto.Clone(s).(*tlsv3.Secret)
		redactFields(c.ProtoReflect(), false)
		out[i] = c
	}
	return out
}

// redactClusters returns clusters with every one whose transport socket
// is an UpstreamTlsContext holding a certificate (an UpstreamCluster's
// client certificate and key, inline) replaced by a copy in which the
// context's sensitive fields are redacted as redactSecrets does. The
// clusters themselves, which the Result shares, are left alone.
func redactClusters(clusters []*clusterv3.Cluster) []*clusterv3.Cluster {
	out := slices.Clone(clusters)
	for i, c := range clusters {
		config := c.GetTransportSocket().GetTypedConfig()
		utls := new(tlsv3.UpstreamTlsContext)
		if config == nil || !config.MessageIs(utls) || config.UnmarshalTo(utls) != nil || len(utls.GetCommonTlsContext().GetTlsCertificates()) == 0 {
			continue
		}
		redactFields(utls.ProtoReflect(), false)
		packed, err := anypb.New(utls)
		if err != nil {
			continue // it was just unpacked: it packs
		}
		cp := proto.Clone(c).(*clusterv3.Cluster)
		cp.TransportSocket.ConfigType = &corev3.TransportSocket_TypedConfig{TypedConfig: packed}
		out[i] = cp
	}
	return out
}

// redactFields redacts the sensitive fields of m, every field when all is
// set, and those of the messages in it.
func redactFields(m protoreflect.Message, all bool) {
	// The fields are listed first: m is changed while they are visited.
	var fields []protoreflect.FieldDescriptor
	m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		fields = append(fields, fd)
		return true
	})
	for _, fd := range fields {
		sensitive, _ := proto.GetExtension(fd.Options(), annotations.E_Sensitive).(bool)
		sensitive = sensitive || all
		v := m.Get(fd)
		switch {
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				l.Set(i, visit(fd, l.Get(i), sensitive))
			}
		case fd.IsMap():
			mv := v.Map()
			var keys []protoreflect.MapKey
			mv.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
				keys = append(keys, k)
				return true
			})
			for _, k := range keys { // the keys name values; they are kept
				mv.Set(k, visit(fd.MapValue(), mv.Get(k), sensitive))
			}
		default:
			m.Set(fd, visit(fd, v, sensitive))
		}
	}
}

// visit returns v, a value of field fd (or an item of it), redacted when
// sensitive, and with its own sensitive fields redacted otherwise.
func visit(fd protoreflect.FieldDescriptor, v protoreflect.Value, sensitive bool) protoreflect.Value {
	switch {
	case !sensitive:
		if fd.Message() != nil {
			redactFields(v.Message(), false)
		}
	case fd.Kind() == protoreflect.StringKind:
		return protoreflect.ValueOfString(redacted(len(v.String())))
	case fd.Kind() == protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte(redacted(len(v.Bytes()))))
	case fd.Message() != nil:
		redactMessage(v.Message())
	}
	return v // numbers and enums say nothing worth hiding
}

// redactMessage redacts the whole of a sensitive message. A DataSource's
// inline value becomes an inline_string marker, so that it still reads as a
// DataSource, while a file name or an environment variable, which name the
// secret without holding it, is kept; an Any keeps its type and loses its
// value; any other message loses every string and bytes value in it.
func redactMessage(m protoreflect.Message) {
	switch x := m.Interface().(type) {
	case *corev3.DataSource:
		switch s := x.Specifier.(type) {
		case *corev3.DataSource_InlineBytes:
			x.Specifier = &corev3.DataSource_InlineString{InlineString: redacted(len(s.InlineBytes))}
		case *corev3.DataSource_InlineString:
			x.Specifier = &corev3.DataSource_InlineString{InlineString: redacted(len(s.InlineString))}
		}
	case *anypb.Any:
		x.Value = nil
	default:
		redactFields(m, true)
	}
}
