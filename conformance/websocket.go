package conformance

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/net/websocket"

	"github.com/projectsesame/sesame/internal/envoysim"
)

// WebSocketDialer opens the suite's WebSocket connections through the
// Envoy configuration: the upgrade request is routed as RoundTripper routes
// any request, Envoy refuses it (403) unless the route or the connection
// manager enables the websocket upgrade, and when the chosen pod answers,
// the connection is a real one to the echo server's /ws handler, which
// echoes every frame, served on 127.0.0.1 in place of the pods.
type WebSocketDialer struct {
	rt *RoundTripper

	once   sync.Once
	server *httptest.Server
}

// NewWebSocketDialer returns a WebSocketDialer to the Gateways of rt's
// cluster. Close stops its echo server.
func NewWebSocketDialer(rt *RoundTripper) *WebSocketDialer { return &WebSocketDialer{rt: rt} }

// Close stops the echo server, if one was started.
func (d *WebSocketDialer) Close() {
	if d.server != nil {
		d.server.Close()
	}
}

// Dial opens a WebSocket connection to rawURL (ws://address/path).
func (d *WebSocketDialer) Dial(rawURL, protocol, origin string) (*websocket.Conn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	httpURL := *u
	httpURL.Scheme = strings.Replace(u.Scheme, "ws", "http", 1)
	headers := map[string][]string{
		"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Origin": {origin}, "Sec-WebSocket-Version": {"13"},
	}
	if protocol != "" {
		headers["Sec-WebSocket-Protocol"] = []string{protocol}
	}
	res, err := d.rt.send(httpURL, "", nil, nil, envoysim.Request{Authority: u.Host, Method: http.MethodGet, Path: u.RequestURI(), Headers: headers})
	if err != nil {
		return nil, err
	}
	if res.echo == nil {
		return nil, fmt.Errorf("websocket: bad status %d", res.status)
	}
	d.once.Do(func() {
		mux := http.NewServeMux()
		mux.Handle("/ws", websocket.Handler(func(ws *websocket.Conn) {
			defer ws.Close()
			for {
				var frame []byte
				if err := websocket.Message.Receive(ws, &frame); err != nil {
					return
				}
				payloadType := byte(websocket.BinaryFrame)
				if ws.PayloadType == websocket.TextFrame {
					payloadType = websocket.TextFrame
				}
				codec := websocket.Codec{Marshal: func(v any) ([]byte, byte, error) { return v.([]byte), payloadType, nil }}
				if err := codec.Send(ws, frame); err != nil {
					return
				}
			}
		}))
		d.server = httptest.NewServer(mux) // 127.0.0.1
	})
	backend := strings.Replace(d.server.URL, "http", "ws", 1) + strings.SplitN(res.echo.Path, "?", 2)[0]
	return websocket.Dial(backend, protocol, origin)
}
