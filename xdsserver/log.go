package xdsserver

import (
	"context"
	"fmt"
	"log/slog"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	serverv3 "github.com/envoyproxy/go-control-plane/pkg/server/v3"
)

// callbacks log the streams' events: opened and closed at Debug, with
// the node; every NACK at Warn, with the versions refused and Envoy's
// reason; requests and responses at Debug.
func (s *Server) callbacks() serverv3.Callbacks {
	log := s.log
	return serverv3.CallbackFuncs{
		StreamOpenFunc: func(_ context.Context, id int64, typeURL string) error {
			log.Debug("stream opened", "stream", id, "type", typeURL, "delta", false)
			return nil
		},
		StreamClosedFunc: func(id int64, node *corev3.Node) {
			log.Debug("stream closed", "stream", id, "node", node.GetId())
		},
		DeltaStreamOpenFunc: func(_ context.Context, id int64, typeURL string) error {
			log.Debug("stream opened", "stream", id, "type", typeURL, "delta", true)
			return nil
		},
		DeltaStreamClosedFunc: func(id int64, node *corev3.Node) {
			log.Debug("stream closed", "stream", id, "node", node.GetId())
		},
		StreamRequestFunc: func(id int64, req *discoveryv3.DiscoveryRequest) error {
			if d := req.GetErrorDetail(); d != nil {
				log.Warn("configuration refused (NACK)", "stream", id, "node", req.GetNode().GetId(), "type", req.GetTypeUrl(),
					"refused", req.GetResponseNonce(), "kept", req.GetVersionInfo(), "reason", d.GetMessage())
				return nil
			}
			log.Debug("request", "stream", id, "node", req.GetNode().GetId(), "type", req.GetTypeUrl(),
				"version", req.GetVersionInfo(), "names", len(req.GetResourceNames()))
			return nil
		},
		StreamResponseFunc: func(_ context.Context, id int64, req *discoveryv3.DiscoveryRequest, resp *discoveryv3.DiscoveryResponse) {
			log.Debug("response", "stream", id, "type", resp.GetTypeUrl(), "version", resp.GetVersionInfo(), "resources", len(resp.GetResources()))
		},
		StreamDeltaRequestFunc: func(id int64, req *discoveryv3.DeltaDiscoveryRequest) error {
			if d := req.GetErrorDetail(); d != nil {
				log.Warn("configuration refused (NACK)", "stream", id, "node", req.GetNode().GetId(), "type", req.GetTypeUrl(),
					"refused", req.GetResponseNonce(), "reason", d.GetMessage())
				return nil
			}
			log.Debug("request", "stream", id, "node", req.GetNode().GetId(), "type", req.GetTypeUrl(), "delta", true,
				"subscribe", len(req.GetResourceNamesSubscribe()), "unsubscribe", len(req.GetResourceNamesUnsubscribe()))
			return nil
		},
		StreamDeltaResponseFunc: func(id int64, req *discoveryv3.DeltaDiscoveryRequest, resp *discoveryv3.DeltaDiscoveryResponse) {
			log.Debug("response", "stream", id, "type", resp.GetTypeUrl(), "delta", true,
				"resources", len(resp.GetResources()), "removed", len(resp.GetRemovedResources()))
		},
	}
}

// cacheLogger is go-control-plane's logger, on slog.
type cacheLogger struct{ log *slog.Logger }

func (l cacheLogger) Debugf(format string, args ...any) { l.log.Debug(fmt.Sprintf(format, args...)) }
func (l cacheLogger) Infof(format string, args ...any)  { l.log.Debug(fmt.Sprintf(format, args...)) }
func (l cacheLogger) Warnf(format string, args ...any)  { l.log.Warn(fmt.Sprintf(format, args...)) }
func (l cacheLogger) Errorf(format string, args ...any) { l.log.Error(fmt.Sprintf(format, args...)) }
