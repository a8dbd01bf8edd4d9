package render

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// envoyTypes are the Envoy message types linked into the tests, Sesame's
// own and those go-control-plane's packages bring.
func envoyTypes(t *testing.T) []protoreflect.MessageType {
	var types []protoreflect.MessageType
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		if strings.HasPrefix(string(mt.Descriptor().FullName()), "envoy.") {
			types = append(types, mt)
		}
		return true
	})
	if len(types) < 100 {
		t.Fatalf("only %d Envoy message types registered", len(types))
	}
	return types
}

// TestPlansReadEveryEnvoyType: every Envoy message type has a plan that
// reads its struct itself, each field of its descriptor once; none falls
// back to protoreflect's walk unnoticed.
func TestPlansReadEveryEnvoyType(t *testing.T) {
	for _, mt := range envoyTypes(t) {
		for _, c := range []*planCache{&jsonPlans, &yamlPlans} {
			p := c.get(reflect.TypeOf(mt.Zero().Interface()))
			if p.viaReflect {
				t.Errorf("%s: no plan", mt.Descriptor().FullName())
				continue
			}
			if len(p.fields) != mt.Descriptor().Fields().Len() {
				t.Errorf("%s: plan of %d fields, descriptor of %d", mt.Descriptor().FullName(), len(p.fields), mt.Descriptor().Fields().Len())
			}
			for i := 1; i < len(p.fields); i++ {
				if c.compare(p.fields[i-1].name, p.fields[i].name) > 0 {
					t.Errorf("%s: %s before %s", mt.Descriptor().FullName(), p.fields[i-1].name, p.fields[i].name)
				}
			}
		}
	}
}

// TestPlansMatchProtojsonOnEveryEnvoyType fills every field of every
// Envoy message type (each oneof member in turn, nested messages two
// levels deep) and checks the walk against protojson's text, and the YAML
// writer's against yaml.v2's writing of that text.
func TestPlansMatchProtojsonOnEveryEnvoyType(t *testing.T) {
	for _, mt := range envoyTypes(t) {
		for variant := range 3 {
			m := mt.New()
			fill(m, variant, 2)
			sameAsProtojson(t, m.Interface())
			v, err := plainValue(m.Interface())
			if err != nil {
				continue // protojson refuses it; sameAsProtojson checked the walk does
			}
			want := viaYAMLv2(t, map[string]any{"m": v})
			if got := writeYAML(t, map[string]any{"m": m.Interface()}); !bytes.Equal(got, want) {
				t.Fatalf("%s: YAML writer\n%s\nyaml.v2\n%s", mt.Descriptor().FullName(), got, want)
			}
		}
	}
}

// fill sets every field of m to a value that is not its zero value: the
// variant-th member of each oneof (counting around), depth levels of
// nested messages.
func fill(m protoreflect.Message, variant, depth int) {
	fds := m.Descriptor().Fields()
	members := map[protoreflect.OneofDescriptor]int{}
	for i := range fds.Len() {
		fd := fds.Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			n := members[od]
			members[od]++
			if n != variant%od.Fields().Len() {
				continue
			}
		}
		switch {
		case fd.IsList():
			l := m.Mutable(fd).List()
			for k := range 2 {
				if v, ok := sample(fd, variant+k, depth, l.NewElement); ok {
					l.Append(v)
				}
			}
		case fd.IsMap():
			mv := m.Mutable(fd).Map()
			for k := range 2 { // two entries, in an order to sort
				if v, ok := sample(fd.MapValue(), variant+k, depth, mv.NewValue); ok {
					mv.Set(mapKey(fd.MapKey(), variant+k), v)
				}
			}
		default:
			if v, ok := sample(fd, variant, depth, func() protoreflect.Value { return m.NewField(fd) }); ok {
				m.Set(fd, v)
			}
		}
	}
}

// sample is a non-zero value of fd's kind: a message from newMessage,
// filled unless it is of a well-known type; false for a message below
// depth 0.
func sample(fd protoreflect.FieldDescriptor, variant, depth int, newMessage func() protoreflect.Value) (protoreflect.Value, bool) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(true), true
	// Odd variants' integers have their low half zero, so that a reading
	// of a narrower width than the field's sees them as zero.
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(-7-variant) << (16 * (variant % 2))), true
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64((math.MaxInt64 - int64(variant)) << (32 * (variant % 2))), true
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(40000+variant) << (16 * (variant % 2))), true
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64((math.MaxUint64 - uint64(variant)) << (32 * (variant % 2))), true
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(0.1 + float32(variant)), true
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(1e21 + float64(variant)), true
	case protoreflect.StringKind:
		return protoreflect.ValueOfString([]string{"a: b", "x", "é\n"}[variant%3]), true
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte{0xff, byte(variant)}), true
	case protoreflect.EnumKind:
		values := fd.Enum().Values()
		return protoreflect.ValueOfEnum(values.Get(values.Len() - 1).Number()), true
	}
	if depth == 0 {
		return protoreflect.Value{}, false
	}
	v := newMessage()
	if _, ok := wellKnown[fd.Message().FullName()]; !ok || wrappers[fd.Message().FullName()] {
		fill(v.Message(), variant, depth-1)
	}
	return v, true
}

// mapKey is a key of kind fd.Kind().
func mapKey(fd protoreflect.FieldDescriptor, variant int) protoreflect.MapKey {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString([]string{"k", "z", "a"}[variant%3]).MapKey()
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(true).MapKey()
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(variant)).MapKey()
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(variant)).MapKey()
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(variant)).MapKey()
	}
	return protoreflect.ValueOfUint64(uint64(variant)).MapKey()
}
