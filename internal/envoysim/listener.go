// Before routing: which filter chain takes a connection, and what it runs.
//
// Envoy picks a listener's filter chain by its FilterChainMatch. Sesame's
// chains match on server_names only, read by the TLS inspector from the
// client's SNI, so FilterChain models that criterion, in Envoy's order
// (FilterChainManagerImpl::findFilterChainForServerName): a chain naming
// the server exactly, then the one with the longest wildcard "*.suffix"
// that covers it, then a chain that names no server, then the listener's
// default chain. For a chain list
//
//	a: [shop.example.com]   b: [*.example.com]   c: [*.shop.example.com]   d: []
//
//	SNI "shop.example.com"    → a
//	SNI "api.shop.example.com" → c   (".shop.example.com" is longer than ".example.com")
//	SNI "x.example.com"       → b
//	SNI "example.org", or none → d
//
// Other FilterChainMatch criteria (destination port, source addresses,
// transport or application protocols) are not modelled: a chain that sets
// them is chosen as if they held.

package envoysim

import (
	"fmt"
	"math"
	"strings"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	tcpproxyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
	"google.golang.org/protobuf/proto"
)

// FilterChain returns the filter chain of l that a connection with TLS
// server name sni ("" without TLS or SNI) reaches, or nil when none does
// and Envoy closes the connection.
func FilterChain(l *listenerv3.Listener, sni string) *listenerv3.FilterChain {
	var best, catchAll *listenerv3.FilterChain
	bestFit := 0
	for _, fc := range l.GetFilterChains() {
		names := fc.GetFilterChainMatch().GetServerNames()
		if len(names) == 0 {
			if catchAll == nil {
				catchAll = fc
			}
			continue
		}
		if fit := ServerNameFit(names, sni); fit > bestFit {
			best, bestFit = fc, fit
		}
	}
	switch {
	case best != nil:
		return best
	case catchAll != nil:
		return catchAll
	}
	return l.GetDefaultFilterChain()
}

// ServerNameFit says how closely a chain's server_names take sni: 0 when
// none does, the length of the longest wildcard "*.suffix" that covers it,
// and more than any wildcard for an exact name. The chain of the highest
// fit wins, the first of equals.
func ServerNameFit(names []string, sni string) int {
	if sni == "" {
		return 0
	}
	sni = asciiLower(sni)
	fit := 0
	for _, n := range names {
		n = asciiLower(n)
		switch {
		case n == sni:
			return math.MaxInt
		case strings.HasPrefix(n, "*.") && strings.HasSuffix(sni, n[1:]) && len(n) > fit:
			fit = len(n)
		}
	}
	return fit
}

// ConnectionManager returns the HTTP connection manager fc runs, nil when
// it runs none, and an error when its configuration does not decode.
func ConnectionManager(fc *listenerv3.FilterChain) (*hcmv3.HttpConnectionManager, error) {
	return networkFilter[hcmv3.HttpConnectionManager](fc)
}

// TCPProxy returns the TCP proxy fc runs, nil when it runs none, and an
// error when its configuration does not decode.
func TCPProxy(fc *listenerv3.FilterChain) (*tcpproxyv3.TcpProxy, error) {
	return networkFilter[tcpproxyv3.TcpProxy](fc)
}

// networkFilter decodes the first filter of fc whose typed config is a
// T; nil when there is none.
func networkFilter[T any, P interface {
	*T
	proto.Message
}](fc *listenerv3.FilterChain) (P, error) {
	msg := P(new(T))
	want := string(msg.ProtoReflect().Descriptor().FullName())
	for _, f := range fc.GetFilters() {
		cfg := f.GetTypedConfig()
		if cfg == nil || !strings.HasSuffix(cfg.GetTypeUrl(), "/"+want) {
			continue
		}
		if err := cfg.UnmarshalTo(msg); err != nil {
			return nil, fmt.Errorf("filter chain %q: filter %q: %w", fc.GetName(), f.GetName(), err)
		}
		return msg, nil
	}
	return nil, nil
}

// HasHTTPFilter reports whether hcm runs the named HTTP filter.
func HasHTTPFilter(hcm *hcmv3.HttpConnectionManager, name string) bool {
	for _, f := range hcm.GetHttpFilters() {
		if f.GetName() == name {
			return true
		}
	}
	return false
}

// UpgradeType is the protocol req asks to upgrade the connection to, its
// Upgrade header lower-cased ("websocket"); "" when it asks for none.
func UpgradeType(req Request) string {
	for name, values := range req.Headers {
		if asciiLower(name) == "upgrade" && len(values) > 0 && values[0] != "" {
			return asciiLower(values[0])
		}
	}
	return ""
}

// UpgradeAllowed reports whether Envoy accepts an upgrade of type kind on
// a route whose action is action: the route's upgrade_configs decide when
// they name it, then the connection manager's. Envoy answers 403 to an
// upgrade it does not accept.
func UpgradeAllowed(hcm *hcmv3.HttpConnectionManager, action *routev3.RouteAction, kind string) bool {
	for _, c := range action.GetUpgradeConfigs() {
		if strings.EqualFold(c.GetUpgradeType(), kind) {
			return c.GetEnabled() == nil || c.GetEnabled().GetValue()
		}
	}
	for _, c := range hcm.GetUpgradeConfigs() {
		if strings.EqualFold(c.GetUpgradeType(), kind) {
			return c.GetEnabled() == nil || c.GetEnabled().GetValue()
		}
	}
	return false
}
