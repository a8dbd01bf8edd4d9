package sesame_test

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// checkTypedConfigs validates the messages packed in google.protobuf.Any
// fields (connection managers, HTTP filters, typed_per_filter_config,
// transport sockets), which ValidateAll on the resource does not open:
// Envoy validates them when it unpacks them, and refuses the resource then.
func checkTypedConfigs(t *testing.T, res *sesame.Result) {
	t.Helper()
	var errs []error
	check := func(kind, name string, m proto.Message) {
		walkAny(m.ProtoReflect(), func(path string, inner proto.Message, err error) {
			if err != nil {
				errs = append(errs, fmt.Errorf("%s %q: %s: %w", kind, name, path, err))
				return
			}
			if v, ok := inner.(xdsmsg.Validator); ok {
				if err := v.ValidateAll(); err != nil {
					errs = append(errs, fmt.Errorf("%s %q: %s: %w", kind, name, path, err))
				}
			}
		})
	}
	for _, l := range res.XDS.Listeners {
		check("Listener", l.GetName(), l)
	}
	for _, rc := range res.XDS.Routes {
		check("RouteConfiguration", rc.GetName(), rc)
	}
	for _, c := range res.XDS.Clusters {
		check("Cluster", c.GetName(), c)
	}
	for _, err := range errs {
		t.Errorf("packed message: %v", err)
	}
}

// walkAny calls f for every message packed in an Any within m, at any
// depth, with its type URL as the path, or with the error that unpacking
// it gave.
func walkAny(m protoreflect.Message, f func(path string, inner proto.Message, err error)) {
	if a, ok := m.Interface().(*anypb.Any); ok {
		inner, err := a.UnmarshalNew()
		f(a.GetTypeUrl(), inner, err)
		if err != nil {
			return
		}
		walkAny(inner.ProtoReflect(), f)
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil:
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				walkAny(v.List().Get(i).Message(), f)
			}
		case fd.IsMap():
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Message() != nil {
					walkAny(mv.Message(), f)
				}
				return true
			})
		default:
			walkAny(v.Message(), f)
		}
		return true
	})
}
