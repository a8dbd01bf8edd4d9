// Package listenermerge groups a Gateway's listeners by port into the sets
// that can share one Envoy listener, and finds the listeners that conflict.
//
// Merge takes the listeners the caller supports (HTTP, HTTPS and TLS; a
// listener of a protocol Sesame does not serve is reported by the caller and
// never reaches Merge, as the spec's "Distinct" rules then do not apply to it)
// and returns one Group per port with the listeners that are accepted, plus
// the reason each other listener is conflicted. The rules come from seeds
// 000/001 ("Listener merging rules") and from the Gateway API v1 text
// "Handling indistinct Listeners" in apis/v1/gateway_types.go:
//
//   - Listeners are grouped by port.
//   - Within a group every listener is HTTP, or every listener is HTTPS or TLS;
//     otherwise every listener on that port has a ProtocolConflict.
//   - Within a group hostnames are distinct; at most one listener omits its
//     hostname. Listeners sharing a hostname all have a HostnameConflict:
//     none is picked as a winner (v1: "ALL indistinct Listeners must not be
//     accepted"; seeds: "both rejected, as there is no way to determine which
//     one was first"). TLS settings do not make listeners distinct.
//
// ListenerSets (v1) add precedence: Listener.Tier is 0 for the Gateway's
// own listeners and then one per ListenerSet, oldest first. A listener
// conflicting with an accepted listener of an earlier tier (its protocol
// family differs from theirs on the port, or one of them has its
// hostname) is rejected and the earlier one stays; the listeners of one
// tier are merged among themselves by the rules above. v1: listeners of
// the Gateway and its ListenerSets are merged "using the following
// precedence: 1. parent Gateway 2. ListenerSet ordered by creation time
// ... 3. alphabetically", and the conformance suite's
// ListenerSetProtocolConflict and ListenerSetHostnameConflict reject only
// the later listener.
//
// Seeds and v1 differ in names only here: the seeds' "Admitted" condition is
// v1's "Accepted", and the seeds' per-port ListenerStatus is v1's
// per-listener status. The TLS, route-binding and status parts of the seeds
// are applied by package dag.
package listenermerge
