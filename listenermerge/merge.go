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
	// Tier is the listener's precedence, 0 (the Gateway's own listeners)
	// first: a listener that conflicts with an accepted listener of an
	// earlier tier is rejected, and that one stays (ListenerSets: the
	// parent Gateway, then each set, oldest first). Within a tier every
	// listener of a conflict is rejected.
	Tier int
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
// distinct from the others on its port: tier by tier, each listener
// against the accepted listeners of earlier tiers and against the others
// of its tier. The result depends only on the set of listeners, not on
// their order, except that indices refer to the input.
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
		if slices.ContainsFunc(members, func(i int) bool { return listeners[i].Tier != listeners[members[0]].Tier }) {
			slices.SortStableFunc(members, func(a, b int) int { return cmp.Compare(listeners[a].Tier, listeners[b].Tier) })
		}
		var accepted []int // of earlier tiers
		for start := 0; start < len(members); {
			end := start + 1
			for end < len(members) && listeners[members[end]].Tier == listeners[members[start]].Tier {
				end++
			}
			accepted = mergeTier(listeners, accepted, members[start:end], res.Conflicts)
			start = end
		}
		if len(accepted) == 0 {
			continue
		}
		slices.Sort(accepted)
		res.Groups = append(res.Groups, Group{Port: port, Secure: secure(listeners[accepted[0]].Protocol), Listeners: accepted})
	}
	return res
}

// mergeTier decides the listeners of one tier on one port, given those of
// earlier tiers accepted there, and returns the accepted ones of both. A
// listener whose protocol family (HTTP, or HTTPS and TLS) differs from the
// accepted ones', or whose hostname one of them has, is rejected; then the
// tier's remaining listeners are merged among themselves as one Gateway's
// are.
func mergeTier(listeners []Listener, accepted, tier []int, conflicts []Reason) []int {
	rest := tier // the Gateway's own listeners, the common case, meet no earlier tier
	if len(accepted) > 0 {
		hostnames := make(map[string]bool, len(accepted))
		for _, i := range accepted {
			hostnames[listeners[i].Hostname] = true
		}
		rest = nil
		for _, i := range tier {
			switch {
			case secure(listeners[i].Protocol) != secure(listeners[accepted[0]].Protocol):
				conflicts[i] = ProtocolConflict
			case hostnames[listeners[i].Hostname]:
				conflicts[i] = HostnameConflict
			default:
				rest = append(rest, i)
			}
		}
	}
	if len(rest) == 0 {
		return accepted
	}
	if mixesProtocols(listeners, rest) {
		for _, i := range rest {
			conflicts[i] = ProtocolConflict
		}
		return accepted
	}
	markHostnameConflicts(listeners, rest, conflicts)
	for _, i := range rest {
		if conflicts[i] == NoConflict {
			accepted = append(accepted, i)
		}
	}
	return accepted
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
