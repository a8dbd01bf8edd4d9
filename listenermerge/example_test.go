package listenermerge_test

import (
	"fmt"

	"github.com/projectsesame/sesame/listenermerge"
)

// Listeners of one Gateway: port 80 serves two hostnames and a catch-all;
// on 443 two listeners claim the same hostname, so neither is accepted,
// whatever their TLS settings; 8443 mixes HTTP with TLS, so no listener
// there is accepted.
func ExampleMerge() {
	listeners := []listenermerge.Listener{
		{Name: "www", Port: 80, Protocol: listenermerge.HTTP, Hostname: "www.example.com"},
		{Name: "api", Port: 80, Protocol: listenermerge.HTTP, Hostname: "api.example.com"},
		{Name: "rest", Port: 80, Protocol: listenermerge.HTTP},
		{Name: "https", Port: 443, Protocol: listenermerge.HTTPS, Hostname: "www.example.com"},
		{Name: "passthrough", Port: 443, Protocol: listenermerge.TLS, Hostname: "www.example.com"},
		{Name: "admin", Port: 443, Protocol: listenermerge.HTTPS, Hostname: "admin.example.com"},
		{Name: "plain", Port: 8443, Protocol: listenermerge.HTTP},
		{Name: "secure", Port: 8443, Protocol: listenermerge.TLS, Hostname: "db.example.com"},
	}
	res := listenermerge.Merge(listeners)
	for _, g := range res.Groups {
		fmt.Printf("port %d (secure %t):", g.Port, g.Secure)
		for _, i := range g.Listeners {
			fmt.Print(" ", listeners[i].Name)
		}
		fmt.Println()
	}
	for i, reason := range res.Conflicts {
		if reason != listenermerge.NoConflict {
			fmt.Println(listeners[i].Name, reason)
		}
	}
	// Output:
	// port 80 (secure false): www api rest
	// port 443 (secure true): admin
	// https HostnameConflict
	// passthrough HostnameConflict
	// plain ProtocolConflict
	// secure ProtocolConflict
}
