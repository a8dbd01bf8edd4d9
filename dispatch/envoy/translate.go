package envoy

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	tlsinspectorv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/listener/tls_inspector/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	httpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

// Options configures Translate. The zero value uses the default identity
// headers and port 443.
type Options struct {
	// UserHeader carries the authenticated user name, set by the
	// authenticating layer in front of Envoy; "" means "x-remote-user".
	UserHeader string
	// GroupsHeader carries the user's groups as one comma-separated value;
	// "" means "x-remote-group".
	GroupsHeader string
	// Port is the port the listener binds; 0 means 443.
	Port int32
}

// ListenerName is the name of the Listener and of the route table of an
// UpstreamCluster: upstreamcluster/<name>.
func ListenerName(name string) string { return "upstreamcluster/" + name }

// RouteName is the prefix of the names of the routes of rule j of policy i:
// forward routes add /route/<k>, guard routes /guard/<k>.
func RouteName(name string, i, j int) string {
	return fmt.Sprintf("upstreamcluster/%s/policy/%d/rule/%d", name, i, j)
}

// SubsetName names the cluster of the k-th distinct subset.
func SubsetName(name string, k int) string {
	return fmt.Sprintf("upstreamcluster/%s/subset/%d", name, k)
}

// Translate translates uc. It returns an error only if dispatch.Compile
// rejects the policies. The reports describe what Envoy does differently
// from the dispatcher: rules partly answered by guard routes, flow control
// that cannot be applied, servers left out.
func Translate(uc *v1alpha1.UpstreamCluster, opts Options) (*resources.Set, []string, error) {
	d, _, err := dispatch.Compile(uc.Spec.DispatchPolicies)
	if err != nil {
		return nil, nil, fmt.Errorf("envoy: UpstreamCluster %q: %w", uc.Name, err)
	}
	if opts.UserHeader == "" {
		opts.UserHeader = "x-remote-user"
	}
	if opts.GroupsHeader == "" {
		opts.GroupsHeader = "x-remote-group"
	}
	if opts.Port == 0 {
		opts.Port = 443
	}
	name := uc.Name
	base := ListenerName(name)
	var reports []string
	schemas := map[string]v1alpha1.FlowControlSchema{}
	for _, s := range uc.Spec.FlowControl.Schemas {
		if _, dup := schemas[s.Name]; !dup {
			schemas[s.Name] = s
		}
	}

	// Subsets, in order of first use; an empty subset is every server.
	type subset struct {
		key      string
		name     string
		inflight int32 // 0: none
		by       int   // the policy that set inflight
	}
	var subsets []*subset
	subsetOf := func(p *v1alpha1.DispatchPolicy) *subset {
		key := strings.Join(sortedCopy(p.UpstreamSubset), "\x00")
		for _, s := range subsets {
			if s.key == key {
				return s
			}
		}
		s := &subset{key: key, name: SubsetName(name, len(subsets))}
		subsets = append(subsets, s)
		return s
	}

	// The rules as the dispatcher compiled them, by position, so that the
	// routes decide exactly as it does.
	compiled := map[[2]int]dispatch.Rule{}
	for _, r := range d.Rules() {
		compiled[[2]int{r.Policy, r.Index}] = r
	}

	vh := &routev3.VirtualHost{Name: base, Domains: []string{"*"}}
	readsQuery := false
	for i := range uc.Spec.DispatchPolicies {
		p := &uc.Spec.DispatchPolicies[i]
		s := subsetOf(p)
		var perRoute map[string]*anypb.Any
		if p.FlowControlSchemaName != "" {
			schema, ok := schemas[p.FlowControlSchemaName]
			switch t := schema.Type(); {
			case !ok:
				reports = append(reports, fmt.Sprintf("policies[%d].flowControlSchemaName: %q names no schema; not limited", i, p.FlowControlSchemaName))
			case t == v1alpha1.TokenBucket:
				perRoute = map[string]*anypb.Any{xdsmsg.LocalRateLimitFilter: xdsmsg.MustAny(tokenBucket(base, i, schema.TokenBucket))}
			case t == v1alpha1.MaxRequestsInflight:
				switch m := schema.MaxRequestsInflight.Max; {
				case s.inflight == 0:
					s.inflight, s.by = m, i
				case s.inflight != m:
					reports = append(reports, fmt.Sprintf("policies[%d]: maxRequestsInflight %d conflicts with %d of policies[%d] on the shared cluster %s; %d is used",
						i, m, s.inflight, s.by, s.name, s.inflight))
				}
			case t == v1alpha1.Exempt:
			default:
				reports = append(reports, fmt.Sprintf("policies[%d].flowControlSchemaName: schema %q has no single type; not limited", i, p.FlowControlSchemaName))
			}
		}
		for j := range p.Rules {
			t := translateRule(compiled[[2]int{i, j}], opts)
			readsQuery = readsQuery || t.readsQuery
			ruleName := RouteName(name, i, j)
			for k, c := range t.forward {
				vh.Routes = append(vh.Routes, &routev3.Route{
					Name:                 fmt.Sprintf("%s/route/%d", ruleName, k),
					Match:                conjMatch(c),
					Action:               &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: s.name}}},
					TypedPerFilterConfig: perRoute,
				})
			}
			var whys []string
			for k, g := range t.guards {
				vh.Routes = append(vh.Routes, guardRoute(fmt.Sprintf("%s/guard/%d", ruleName, k), name, i, j, g))
				if g.why != whyPath && g.why != whyQuery && g.why != whyName && !slices.Contains(whys, g.why) {
					whys = append(whys, g.why)
				}
			}
			for _, why := range whys {
				reports = append(reports, fmt.Sprintf("policies[%d].rules[%d]: partly expressed: %s; the requests this leaves undecided are answered 500 by a guard route rather than forwarded or passed to later policies", i, j, why))
			}
		}
	}
	vh.Routes = append(vh.Routes, &routev3.Route{
		Name:   base + "/no-policy",
		Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}},
		Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 404}},
	})

	if readsQuery {
		reports = append(reports, "routes read the query (list or watch, fieldSelector names) as Kubernetes does, except a query of more than 10000 parameters, "+
			"which Kubernetes reads as empty and Envoy as written")
	}

	r := &resources.Set{}
	r.Routes = []*routev3.RouteConfiguration{{Name: base, VirtualHosts: []*routev3.VirtualHost{vh}}}
	r.Listeners = []*listenerv3.Listener{listener(uc, base, opts.Port)}
	r.Secrets = []*tlsv3.Secret{{
		Name: base + "/serving",
		Type: &tlsv3.Secret_TlsCertificate{TlsCertificate: &tlsv3.TlsCertificate{
			CertificateChain: xdsmsg.Inline(uc.Spec.SecureServing.CertData),
			PrivateKey:       xdsmsg.Inline(uc.Spec.SecureServing.KeyData),
		}},
	}}
	for _, s := range subsets {
		var endpoints []string
		if s.key != "" {
			endpoints = strings.Split(s.key, "\x00")
		}
		c, rep := subsetCluster(uc, s.name, endpoints, s.inflight)
		reports = append(reports, rep...)
		r.Clusters = append(r.Clusters, c)
	}
	return r, reports, nil
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// tokenBucket is a local rate limit of qps per second with room for burst;
// over the limit Envoy answers 429, the filter's default.
func tokenBucket(base string, policy int, tb *v1alpha1.TokenBucketFlowControlSchema) *localratelimitv3.LocalRateLimit {
	burst := uint32(max(tb.Burst, tb.QPS, 1))
	return &localratelimitv3.LocalRateLimit{
		StatPrefix: base + "/policy/" + strconv.Itoa(policy),
		Status:     &typev3.HttpStatus{Code: typev3.StatusCode_TooManyRequests},
		TokenBucket: &typev3.TokenBucket{
			MaxTokens:     burst,
			TokensPerFill: wrapperspb.UInt32(uint32(max(tb.QPS, 1))),
			FillInterval:  durationpb.New(1e9),
		},
		FilterEnabled:  &corev3.RuntimeFractionalPercent{DefaultValue: &typev3.FractionalPercent{Numerator: 100}},
		FilterEnforced: &corev3.RuntimeFractionalPercent{DefaultValue: &typev3.FractionalPercent{Numerator: 100}},
	}
}

func listener(uc *v1alpha1.UpstreamCluster, base string, port int32) *listenerv3.Listener {
	common := &tlsv3.CommonTlsContext{
		AlpnProtocols: []string{"h2", "http/1.1"},
		TlsCertificateSdsSecretConfigs: []*tlsv3.SdsSecretConfig{{
			Name: base + "/serving", SdsConfig: xdsmsg.ADSConfigSource(),
		}},
	}
	dtls := &tlsv3.DownstreamTlsContext{CommonTlsContext: common}
	if ca := uc.Spec.SecureServing.ClientCAData; len(ca) > 0 {
		common.ValidationContextType = &tlsv3.CommonTlsContext_ValidationContext{ValidationContext: &tlsv3.CertificateValidationContext{TrustedCa: xdsmsg.Inline(ca)}}
		dtls.RequireClientCertificate = wrapperspb.Bool(true)
	}
	hcm := &hcmv3.HttpConnectionManager{
		StatPrefix: base,
		CodecType:  hcmv3.HttpConnectionManager_AUTO,
		RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{
			ConfigSource: xdsmsg.ADSConfigSource(), RouteConfigName: base,
		}},
		// The path is matched as Kubernetes reads it, so Envoy must not
		// normalise it, merge slashes or act on escaped slashes (the
		// routes guard escaped paths themselves).
		NormalizePath:                wrapperspb.Bool(false),
		PathWithEscapedSlashesAction: hcmv3.HttpConnectionManager_KEEP_UNCHANGED,
		HttpFilters: []*hcmv3.HttpFilter{
			{Name: xdsmsg.LocalRateLimitFilter, ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: xdsmsg.MustAny(&localratelimitv3.LocalRateLimit{StatPrefix: base})}},
			xdsmsg.Router(),
		},
	}
	return &listenerv3.Listener{
		Name:    base,
		Address: xdsmsg.SocketAddress("0.0.0.0", port),
		// The filter chain is chosen by SNI, which the TLS inspector reads.
		ListenerFilters: []*listenerv3.ListenerFilter{{
			Name:       xdsmsg.TLSInspectorFilter,
			ConfigType: &listenerv3.ListenerFilter_TypedConfig{TypedConfig: xdsmsg.MustAny(&tlsinspectorv3.TlsInspector{})},
		}},
		FilterChains: []*listenerv3.FilterChain{{
			Name:             base,
			FilterChainMatch: &listenerv3.FilterChainMatch{ServerNames: []string{uc.Name}},
			TransportSocket:  xdsmsg.TLSTransportSocket(dtls),
			Filters:          []*listenerv3.Filter{xdsmsg.NetworkFilter(xdsmsg.HTTPConnectionManagerFilter, hcm)},
		}},
	}
}

// Endpoint reads a server's endpoint as Translate does: "https://host:port",
// host an IP address or a DNS name and port 1 to 65535. It returns ok
// false for anything else, which Translate leaves out of the clusters with
// a report.
func Endpoint(endpoint string) (host string, port int32, ok bool) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "https" {
		return "", 0, false
	}
	host, p, err := net.SplitHostPort(u.Host)
	if err != nil || host == "" {
		return "", 0, false
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return "", 0, false
	}
	return host, int32(n), true
}

// subsetCluster is a round-robin HTTP/2 cluster of the enabled servers
// among endpoints (every server when endpoints is empty): STATIC when they
// are IP addresses, STRICT_DNS when one is a name.
func subsetCluster(uc *v1alpha1.UpstreamCluster, name string, endpoints []string, inflight int32) (*clusterv3.Cluster, []string) {
	var reports []string
	for _, e := range endpoints {
		if !slices.ContainsFunc(uc.Spec.Servers, func(s v1alpha1.UpstreamClusterServer) bool { return s.Endpoint == e }) {
			reports = append(reports, fmt.Sprintf("upstreamSubset: %q is not a server of the cluster; skipped in %s", e, name))
		}
	}
	cla := &endpointv3.ClusterLoadAssignment{ClusterName: name}
	locality := &endpointv3.LocalityLbEndpoints{}
	sni, byName := "", false
	for _, s := range uc.Spec.Servers {
		if len(endpoints) > 0 && !slices.Contains(endpoints, s.Endpoint) || s.Disabled != nil && *s.Disabled {
			continue
		}
		host, port, ok := Endpoint(s.Endpoint)
		if !ok {
			reports = append(reports, fmt.Sprintf("servers: endpoint %q is not https://host:port; left out of %s", s.Endpoint, name))
			continue
		}
		if sni == "" {
			sni = host
		}
		if _, err := netip.ParseAddr(host); err != nil {
			byName = true
		}
		locality.LbEndpoints = append(locality.LbEndpoints, &endpointv3.LbEndpoint{HostIdentifier: &endpointv3.LbEndpoint_Endpoint{
			Endpoint: &endpointv3.Endpoint{Address: xdsmsg.SocketAddress(host, port), Hostname: host},
		}})
	}
	if len(locality.LbEndpoints) > 0 {
		cla.Endpoints = []*endpointv3.LocalityLbEndpoints{locality}
	}
	cc := uc.Spec.ClientConfig
	common := &tlsv3.CommonTlsContext{AlpnProtocols: []string{"h2"}}
	if len(cc.CertData) > 0 || len(cc.KeyData) > 0 {
		common.TlsCertificates = []*tlsv3.TlsCertificate{{CertificateChain: xdsmsg.Inline(cc.CertData), PrivateKey: xdsmsg.Inline(cc.KeyData)}}
	}
	if !cc.Insecure && len(cc.CAData) > 0 {
		common.ValidationContextType = &tlsv3.CommonTlsContext_ValidationContext{ValidationContext: &tlsv3.CertificateValidationContext{TrustedCa: xdsmsg.Inline(cc.CAData)}}
	}
	utls := &tlsv3.UpstreamTlsContext{CommonTlsContext: common, Sni: sni, AutoHostSni: true}
	// STATIC takes IP addresses only; Envoy resolves names (and reads
	// addresses alike) in STRICT_DNS clusters.
	discovery := clusterv3.Cluster_STATIC
	if byName {
		discovery = clusterv3.Cluster_STRICT_DNS
	}
	c := &clusterv3.Cluster{
		Name:                 name,
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: discovery},
		LbPolicy:             clusterv3.Cluster_ROUND_ROBIN,
		LoadAssignment:       cla,
		TransportSocket:      xdsmsg.TLSTransportSocket(utls),
		TypedExtensionProtocolOptions: map[string]*anypb.Any{
			xdsmsg.HTTPProtocolOptions: xdsmsg.MustAny(&httpv3.HttpProtocolOptions{
				UpstreamProtocolOptions: &httpv3.HttpProtocolOptions_ExplicitHttpConfig_{ExplicitHttpConfig: &httpv3.HttpProtocolOptions_ExplicitHttpConfig{
					ProtocolConfig: &httpv3.HttpProtocolOptions_ExplicitHttpConfig_Http2ProtocolOptions{Http2ProtocolOptions: &corev3.Http2ProtocolOptions{}},
				}},
			}),
		},
	}
	if inflight > 0 {
		c.CircuitBreakers = &clusterv3.CircuitBreakers{Thresholds: []*clusterv3.CircuitBreakers_Thresholds{{MaxRequests: wrapperspb.UInt32(uint32(inflight))}}}
	}
	return c, reports
}

// conjMatch is the RouteMatch of a conjunction: its conditions as header
// matchers, the method first, then the identity headers, then :path.
func conjMatch(c conj) *routev3.RouteMatch {
	m := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}}
	rank := func(x cond) int {
		switch {
		case x.methods != 0 || x.header == ":method":
			return 0
		case x.header != ":path":
			return 1
		}
		return 2
	}
	sorted := slices.Clone(c)
	slices.SortStableFunc(sorted, func(a, b cond) int { return rank(a) - rank(b) })
	for _, x := range sorted {
		if x.methods != 0 {
			m.Headers = append(m.Headers, regexHeader(":method", methodRegex(x.methods), x.methods&methodOther != 0))
			continue
		}
		m.Headers = append(m.Headers, regexHeader(x.header, x.re, x.invert))
	}
	return m
}

func regexHeader(name, re string, invert bool) *routev3.HeaderMatcher {
	return &routev3.HeaderMatcher{
		Name:                      name,
		HeaderMatchSpecifier:      &routev3.HeaderMatcher_StringMatch{StringMatch: &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: re}}}},
		InvertMatch:               invert,
		TreatMissingHeaderAsEmpty: true,
	}
}
