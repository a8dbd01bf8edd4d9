package xdsgen

import (
	"errors"
	"fmt"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// validator is the method protoc-gen-validate generates on every Envoy
// message.
type validator interface{ ValidateAll() error }

// Validate checks the resources as Envoy would before accepting them, and
// returns every failure, each naming its resource:
//
//   - each message passes its own validation rules (ValidateAll);
//   - names are unique per resource type;
//   - within a route table, virtual host names and domains are unique;
//   - within a listener, filter chain names and matches are unique.
//
// The last two are rules Envoy enforces when it loads the configuration, not
// in the message schema, so ValidateAll alone would let a NACK through.
func (r *Resources) Validate() error {
	var errs []error
	check := func(kind, name string, v validator) {
		if err := v.ValidateAll(); err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %w", kind, name, err))
		}
	}
	names := map[string]bool{}
	unique := func(kind, name string) {
		if names[kind+"\x00"+name] {
			errs = append(errs, fmt.Errorf("%s %q: the name is used twice", kind, name))
		}
		names[kind+"\x00"+name] = true
	}
	for _, x := range r.Listeners {
		check("Listener", x.GetName(), x)
		unique("Listener", x.GetName())
		chainNames, matches := map[string]bool{}, map[string]bool{}
		for _, fc := range x.GetFilterChains() {
			if fc.GetName() != "" && chainNames[fc.GetName()] {
				errs = append(errs, fmt.Errorf("Listener %q: filter chain name %q is used twice", x.GetName(), fc.GetName()))
			}
			chainNames[fc.GetName()] = true
			for _, key := range matchKeys(fc) {
				if matches[key] {
					errs = append(errs, fmt.Errorf("Listener %q: filter chain %q has the same match as another", x.GetName(), fc.GetName()))
					break
				}
				matches[key] = true
			}
		}
	}
	// Routes that virtual hosts share are one message: validate each once,
	// and the route tables and virtual hosts without them.
	validated := map[*routev3.Route]bool{}
	for _, x := range r.Routes {
		check("RouteConfiguration", x.GetName(), without(x, "virtual_hosts"))
		for _, vh := range x.GetVirtualHosts() {
			check("RouteConfiguration", x.GetName(), without(vh, "routes"))
			for _, rt := range vh.GetRoutes() {
				if !validated[rt] {
					validated[rt] = true
					check("RouteConfiguration", x.GetName(), rt)
				}
			}
		}
		unique("RouteConfiguration", x.GetName())
		vhostNames, domains := map[string]bool{}, map[string]bool{}
		for _, vh := range x.GetVirtualHosts() {
			if vhostNames[vh.GetName()] {
				errs = append(errs, fmt.Errorf("RouteConfiguration %q: virtual host name %q is used twice", x.GetName(), vh.GetName()))
			}
			vhostNames[vh.GetName()] = true
			for _, d := range vh.GetDomains() {
				if domains[d] {
					errs = append(errs, fmt.Errorf("RouteConfiguration %q: domain %q is in two virtual hosts", x.GetName(), d))
				}
				domains[d] = true
			}
		}
	}
	for _, x := range r.Clusters {
		check("Cluster", x.GetName(), x)
		unique("Cluster", x.GetName())
	}
	for _, x := range r.Endpoints {
		check("ClusterLoadAssignment", x.GetClusterName(), x)
		unique("ClusterLoadAssignment", x.GetClusterName())
	}
	for _, x := range r.Secrets {
		check("Secret", x.GetName(), x)
		unique("Secret", x.GetName())
	}
	return errors.Join(errs...)
}

// without returns a shallow copy of m without one field, so that validating
// it does not validate that field's messages again.
func without(m proto.Message, field protoreflect.Name) validator {
	src := m.ProtoReflect()
	dst := src.New()
	src.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Name() != field {
			dst.Set(fd, v)
		}
		return true
	})
	return dst.Interface().(validator)
}

// matchKeys are the distinct things a filter chain matches: Envoy refuses two
// chains that share a server name (or both have none) with otherwise equal
// matches, even when their server name lists differ.
func matchKeys(fc *listenerv3.FilterChain) []string {
	m, _ := proto.Clone(fc.GetFilterChainMatch()).(*listenerv3.FilterChainMatch)
	if m == nil {
		m = &listenerv3.FilterChainMatch{}
	}
	names := m.GetServerNames()
	m.ServerNames = nil
	rest := deterministic(m)
	if len(names) == 0 {
		return []string{"\x00" + rest}
	}
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = n + "\x00" + rest
	}
	return keys
}

// deterministic is a comparable form of a message: equal messages give
// equal strings.
func deterministic(m proto.Message) string {
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return fmt.Sprintf("unmarshalable %v", err)
	}
	return string(data)
}
