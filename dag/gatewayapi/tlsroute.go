package gatewayapi

import (
	"fmt"

	"github.com/projectsesame/sesame/dag/graph"
)

// addTLSRoute gives the TLSRoute the SNI hostnames it serves on a TLS
// listener, unless an older route has them: of two TLSRoutes asking for one
// hostname the oldest wins, as the seeds decide route conflicts. It returns
// the hostnames that stay with another route.
func addTLSRoute(l *listener, hostnames []string, tcp *graph.TCPRoute) (taken []string) {
	for _, h := range hostnames {
		if owner := l.tlsRoutes[h]; owner != nil && owner.Source != tcp.Source {
			name := h
			if name == "" {
				name = "(any server name)"
			}
			taken = append(taken, fmt.Sprintf("%s (TLSRoute %s/%s)", name, owner.Source.Namespace, owner.Source.Name))
			continue
		}
		l.tlsRoutes[h] = tcp
	}
	return taken
}
