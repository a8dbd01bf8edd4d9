// Package protocol will decide the protocol Envoy speaks to a backend from
// the appProtocol of its Service and EndpointSlice ports and the kind of
// route that reaches it (GEP-1911, seed 004).
//
// It holds no code yet: until it does, every backend is spoken to in HTTP/1.1
// and appProtocol is not read.
package protocol
