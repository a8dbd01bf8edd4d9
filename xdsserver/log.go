package xdsserver

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	serverv3 "github.com/envoyproxy/go-control-plane/pkg/server/v3"
)

// callbacks log the streams' events: opened and closed at Debug, with
// the node; every NACK at Warn, with the version refused and Envoy's
// reason; requests and responses at Debug. They also keep a NACK from
// bringing the version refused back at once (sent).
func (s *Server) callbacks() serverv3.Callbacks {
	log := s.log
	sent := &sentVersions{last: map[int64]map[string]nonceVersion{}}
	return serverv3.CallbackFuncs{
		StreamOpenFunc: func(_ context.Context, id int64, typeURL string) error {
			log.Debug("stream opened", "stream", id, "type", typeURL, "delta", false)
			return nil
		},
		StreamClosedFunc: func(id int64, node *corev3.Node) {
			sent.forget(id)
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
				refused := sent.nack(id, req)
				log.Warn("configuration refused (NACK)", "stream", id, "node", req.GetNode().GetId(), "type", req.GetTypeUrl(),
					"refused", refused, "reason", d.GetMessage())
				return nil
			}
			log.Debug("request", "stream", id, "node", req.GetNode().GetId(), "type", req.GetTypeUrl(),
				"version", req.GetVersionInfo(), "names", len(req.GetResourceNames()))
			return nil
		},
		StreamResponseFunc: func(_ context.Context, id int64, req *discoveryv3.DiscoveryRequest, resp *discoveryv3.DiscoveryResponse) {
			sent.record(id, resp)
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

// sentVersions are the last response of each type on each State of the
// World stream. A NACK names, as its version, the last version the client
// accepted; the snapshot cache, seeing it differ from the version it
// serves, would send the refused configuration again at once, and the
// client refuse it again, as fast as both can. So a NACK of the last
// response is given to the cache as if it named the version refused: the
// cache then answers when the configuration changes. (Delta streams keep
// the versions each client has, and do not resend.)
type sentVersions struct {
	mu   sync.Mutex
	last map[int64]map[string]nonceVersion // by stream, then type
}

type nonceVersion struct{ nonce, version string }

func (s *sentVersions) record(stream int64, resp *discoveryv3.DiscoveryResponse) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last[stream] == nil {
		s.last[stream] = map[string]nonceVersion{}
	}
	s.last[stream][resp.GetTypeUrl()] = nonceVersion{resp.GetNonce(), resp.GetVersionInfo()}
}

// nack sets req, a NACK, to name the version it refused, when it refuses
// the stream's last response of its type, and says which version that is
// ("" when it refuses an older one, which the server ignores).
func (s *sentVersions) nack(stream int64, req *discoveryv3.DiscoveryRequest) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	last, ok := s.last[stream][req.GetTypeUrl()]
	if !ok || last.nonce != req.GetResponseNonce() {
		return ""
	}
	req.VersionInfo = last.version
	return last.version
}

func (s *sentVersions) forget(stream int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.last, stream)
}

// cacheLogger is go-control-plane's logger, on slog.
type cacheLogger struct{ log *slog.Logger }

func (l cacheLogger) Debugf(format string, args ...any) { l.log.Debug(fmt.Sprintf(format, args...)) }
func (l cacheLogger) Infof(format string, args ...any)  { l.log.Debug(fmt.Sprintf(format, args...)) }
func (l cacheLogger) Warnf(format string, args ...any)  { l.log.Warn(fmt.Sprintf(format, args...)) }
func (l cacheLogger) Errorf(format string, args ...any) { l.log.Error(fmt.Sprintf(format, args...)) }
