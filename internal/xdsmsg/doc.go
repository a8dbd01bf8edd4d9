// Package xdsmsg holds the small pieces of Envoy messages that Sesame's
// translations share: the names of the Envoy extensions they configure, a
// TCP socket address, the ADS config source, inline data, the router HTTP
// filter, a TLS transport socket, MustAny, Without (a shallow copy of a
// message without some fields), the digests the Translator's deltas and
// the xDS server's versions compare (Digest, RouteRest, Combine,
// DigestVirtualHosts, each shared route marshalled once, and DigestEach, on
// every processor), and the helpers that name a message's validation
// failure after its resource (Validator, AppendInvalid, ResourceError). Its functions build new
// messages on every call and never fail on valid input: MustAny panics
// only for a message type that is not registered, a programming error. It
// is used by xdsgen, xdsgen/resources, dispatch/envoy, package sesame and
// xdsserver, and imports none of them, nor dag.
package xdsmsg
