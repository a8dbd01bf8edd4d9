package protocol

// FromHTTPProxy maps the protocol of an HTTPProxy service
// (spec.routes[].services[].protocol: "h2c", "h2" or "tls") onto the same
// decisions, so that HTTPProxy and Gateway API backends are configured
// alike. An empty value returns "" and true: the Service's appProtocol then
// decides, as for an HTTPRoute. ok is false for another value.
func FromHTTPProxy(protocol string) (p Protocol, ok bool) {
	switch protocol {
	case "":
		return "", true
	case "h2c":
		return H2C, true
	case "h2":
		return H2, true
	case "tls":
		return HTTPS, true
	}
	return "", false
}
