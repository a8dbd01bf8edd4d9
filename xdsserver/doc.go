// Package xdsserver serves translations to Envoy over the aggregated
// discovery service (ADS), State of the World and Delta alike, on
// go-control-plane's server and snapshot cache: give it the Envoy
// resources of each node group (Set; GroupsOf makes the groups of a
// sesame.Result, one per served Gateway under the node id the managed
// fleet's bootstrap gives, provision.NodeID) and it sends each connected
// Envoy the resources of its group, and what changes of them.
//
// Versions come from content: a resource's is a digest of its
// deterministic wire form, a type's a digest of its resources' names and
// versions, so that the same configuration set again never looks new to
// an Envoy (State of the World compares type versions, Delta resource
// versions), and a change of one cluster sends that cluster, not the
// route tables. Digests are kept per message between Sets, and a route
// configuration's is made of its virtual hosts': a Translator's Results
// share the messages and virtual hosts that did not change with the Result
// before, so a Set after an Update marshals only what the Update changed.
// Each group's types are kept too, as the last Set made them: a type given
// the very messages again is taken as it was, one whose messages are the
// last's in their order but for a few replaced, added or removed is
// patched from the last, and the snapshot's consistency is checked again
// only when the listeners, the clusters or the names of route tables and
// load assignments changed. A Set after one route's Update then costs
// about what that route changed; after an endpoint change, copies of the
// load assignments' maps, which go-control-plane's snapshot holds
// (BenchmarkSet). Messages are never modified once Set (Translate and the
// Translator never do).
//
// A node whose id names no group gets the Fallback group, when there is
// one (GroupsOf's AllGroup holds the whole translation, the listeners of
// HTTPProxies and Ingresses included, which belong to no Gateway), and
// otherwise nothing: the server logs, once per node id, that it waits
// for a group of that name.
//
// Events are logged through log/slog: streams opened and closed, each
// group's new versions, and every NACK with the version refused and
// Envoy's error detail, at Warn. A version refused is not sent again to
// that stream; the next is. Serve stops when its context ends: the xDS
// streams are ended, then the gRPC server stops gracefully, or at once
// after Options.StopTimeout.
//
// gRPC's own xDS clients (proxyless gRPC) read a group ForGRPC makes of a
// Gateway's: grpc.go says what they read differently from Envoy. A
// GRPCBridge makes that group from one translation to the next and gives
// the very messages it gave before for what did not change, so that a Set
// after an Update digests only what changed there too.
package xdsserver
