package listenermerge

import (
	"cmp"
	"slices"
)

// Protocol values Merge understands; they are the Gateway API v1
// ProtocolType strings.
const (
	HTTP  = "HTTP"
	HTTPS = "HTTPS"
	TLS   = "TLS"
)

// Listener is what merging needs to know of one Gateway listener.
type Listener struct {
	Name     string
	Port     int32
	Protocol string // HTTP, HTTPS or TLS
	Hostname string // "" when the listener has none
}

// Reason says why a listener is conflicted. The values are the Gateway API v1
// listener condition reasons.
type Reason string

const (
	// NoConflict is the zero Reason: the listener is accepted.
	NoConflict Reason = ""
	// ProtocolConflict: listeners on the same port mix HTTP with HTTPS or TLS.
	ProtocolConflict Reason = "ProtocolConflict"
	// HostnameConflict: another listener on the same port has the same hostname.
	HostnameConflict Reason = "HostnameConflict"
)

// Group is the set of accepted listeners on one port.
type Group struct {
	Port int32
	// Secure is true for a group of HTTPS and TLS listeners, false for HTTP.
	Secure bool
	// Listeners holds indices into the slice given to Merge, in that order.
	Listeners []int
}

// Result is the outcome of Merge.
type Result struct {
	// Groups has one entry per port with at least one accepted listener,
	// ordered by port.
	Groups []Group
	// Conflicts has one entry per listener given to Merge: NoConflict for an
	// accepted listener, otherwise the reason it was rejected.
	Conflicts []Reason
}

// Merge groups listeners by port and rejects every listener that is not
// distinct from the others on its port. The result depends only on the set of
// listeners, not on their order, except that indices refer to the input.
func Merge(listeners []Listener) Result {
	res := Result{Conflicts: make([]Reason, len(listeners))}
	byPort := map[int32][]int{}
	for i, l := range listeners {
		byPort[l.Port] = append(byPort[l.Port], i)
	}
	ports := make([]int32, 0, len(byPort))
	for port := range byPort {
		ports = append(ports, port)
	}
	slices.Sort(ports)

	for _, port := range ports {
		members := byPort[port]
		if mixesProtocols(listeners, members) {
			for _, i := range members {
				res.Conflicts[i] = ProtocolConflict
			}
			continue
		}
		markHostnameConflicts(listeners, members, res.Conflicts)
		group := Group{Port: port, Secure: secure(listeners[members[0]].Protocol)}
		for _, i := range members {
			if res.Conflicts[i] == NoConflict {
				group.Listeners = append(group.Listeners, i)
			}
		}
		if len(group.Listeners) > 0 {
			res.Groups = append(res.Groups, group)
		}
	}
	return res
}

func secure(protocol string) bool { return protocol != HTTP }

// mixesProtocols reports whether a port holds both HTTP and HTTPS/TLS
// listeners, which one Envoy listener cannot serve: plaintext HTTP and a TLS
// handshake cannot be told apart by SNI.
func mixesProtocols(listeners []Listener, members []int) bool {
	first := secure(listeners[members[0]].Protocol)
	for _, i := range members[1:] {
		if secure(listeners[i].Protocol) != first {
			return true
		}
	}
	return false
}

// markHostnameConflicts marks every listener whose hostname another listener
// on the same port also has. Hostnames compare exactly: validated hostnames
// are lower case, and a wildcard never equals a precise name.
func markHostnameConflicts(listeners []Listener, members []int, conflicts []Reason) {
	sorted := slices.Clone(members)
	slices.SortFunc(sorted, func(a, b int) int {
		return cmp.Compare(listeners[a].Hostname, listeners[b].Hostname)
	})
	for k := 1; k < len(sorted); k++ {
		a, b := sorted[k-1], sorted[k]
		if listeners[a].Hostname == listeners[b].Hostname {
			conflicts[a] = HostnameConflict
			conflicts[b] = HostnameConflict
		}
	}
}
