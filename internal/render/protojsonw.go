package render

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// protoMsg is an Envoy message in a document, which the JSON writer walks
// itself (message) rather than through protojson and generic values: the
// same text, without building it twice. TestMessageMatchesProtojson and
// FuzzMessageMatchesProtojson hold it to protojson's.
type protoMsg struct {
	m proto.Message
}

// message writes m as protojson would write it, decoded into generic JSON
// values and written again: populated fields by their JSON names, keys
// sorted, 64-bit integers as strings, enums by name, the well-known types
// in their JSON forms.
func (j *jsonWriter) message(m protoreflect.Message, depth int) error {
	if w, ok := wellKnown[m.Descriptor().FullName()]; ok {
		return w(j, m, depth)
	}
	fields, err := fieldsOf(m, nil)
	if err != nil {
		return err
	}
	return j.fields(fields, depth)
}

// member is a field of a message as protojson writes it, or, with no
// descriptor, an Any's "@type" (typeURL).
type member struct {
	name    string
	fd      protoreflect.FieldDescriptor
	v       protoreflect.Value
	typeURL string
}

// fieldsOf are the populated fields of m, after first.
func fieldsOf(m protoreflect.Message, first []member) ([]member, error) {
	var err error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.IsExtension() {
			err = fmt.Errorf("render: %s: extensions are not rendered", m.Descriptor().FullName())
			return false
		}
		first = append(first, member{name: fd.JSONName(), fd: fd, v: v})
		return true
	})
	return first, err
}

// fields writes members as an object.
func (j *jsonWriter) fields(ms []member, depth int) error {
	return j.object(len(ms), depth, func(i int) string { return ms[i].name }, func(i int) error {
		if ms[i].fd == nil {
			j.string(ms[i].typeURL)
			return nil
		}
		return j.field(ms[i].fd, ms[i].v, depth+1)
	})
}

// field writes the value of fd, a list, a map or a single value.
func (j *jsonWriter) field(fd protoreflect.FieldDescriptor, v protoreflect.Value, depth int) error {
	switch {
	case fd.IsList():
		l := v.List()
		return j.array(l.Len(), depth, func(i int) error { return j.single(fd, l.Get(i), depth+1) })
	case fd.IsMap():
		type entry struct {
			key string
			v   protoreflect.Value
		}
		var entries []entry
		v.Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
			entries = append(entries, entry{k.String(), v})
			return true
		})
		return j.object(len(entries), depth, func(i int) string { return entries[i].key }, func(i int) error {
			return j.single(fd.MapValue(), entries[i].v, depth+1)
		})
	}
	return j.single(fd, v, depth)
}

// single writes one value of a field of kind fd.Kind().
func (j *jsonWriter) single(fd protoreflect.FieldDescriptor, v protoreflect.Value, depth int) error {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		j.bool(v.Bool())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		j.float(float64(v.Int()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		j.float(float64(v.Uint()))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		j.string(strconv.FormatInt(v.Int(), 10))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		j.string(strconv.FormatUint(v.Uint(), 10))
	case protoreflect.FloatKind:
		return j.protoFloat(v.Float(), 32)
	case protoreflect.DoubleKind:
		return j.protoFloat(v.Float(), 64)
	case protoreflect.StringKind:
		if !utf8.ValidString(v.String()) {
			return fmt.Errorf("render: field %s has invalid UTF-8", fd.FullName())
		}
		j.string(v.String())
	case protoreflect.BytesKind:
		j.string(base64.StdEncoding.EncodeToString(v.Bytes()))
	case protoreflect.EnumKind:
		if fd.Enum().FullName() == "google.protobuf.NullValue" {
			j.w.WriteString("null")
			return nil
		}
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			j.string(string(ev.Name()))
		} else {
			j.float(float64(v.Enum()))
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return j.message(v.Message(), depth)
	default:
		return fmt.Errorf("render: field %s: unknown kind %v", fd.FullName(), fd.Kind())
	}
	return nil
}

// protoFloat writes a float or double as protojson does, read back as a
// float64: NaN and the infinities as strings, a float by its shortest
// 32-bit form.
func (j *jsonWriter) protoFloat(f float64, bits int) error {
	switch {
	case math.IsNaN(f):
		j.string("NaN")
	case math.IsInf(f, 1):
		j.string("Infinity")
	case math.IsInf(f, -1):
		j.string("-Infinity")
	default:
		if bits == 32 {
			var err error
			if f, err = strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64); err != nil {
				return err
			}
		}
		j.float(f)
	}
	return nil
}

// wellKnown are the messages protojson writes in a form of their own.
var wellKnown map[protoreflect.FullName]func(j *jsonWriter, m protoreflect.Message, depth int) error

func init() {
	wellKnown = map[protoreflect.FullName]func(*jsonWriter, protoreflect.Message, int) error{
		"google.protobuf.Any":       (*jsonWriter).anyMessage,
		"google.protobuf.Duration":  (*jsonWriter).duration,
		"google.protobuf.Timestamp": (*jsonWriter).timestamp,
		"google.protobuf.Struct":    (*jsonWriter).structMessage,
		"google.protobuf.ListValue": func(j *jsonWriter, m protoreflect.Message, depth int) error {
			return j.field(m.Descriptor().Fields().ByName("values"), m.Get(m.Descriptor().Fields().ByName("values")), depth)
		},
		"google.protobuf.Value":     (*jsonWriter).valueMessage,
		"google.protobuf.FieldMask": (*jsonWriter).fieldMask,
	}
	for _, w := range []protoreflect.FullName{"DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value", "BoolValue", "StringValue", "BytesValue"} {
		wellKnown["google.protobuf."+w] = func(j *jsonWriter, m protoreflect.Message, depth int) error {
			fd := m.Descriptor().Fields().ByName("value")
			return j.single(fd, m.Get(fd), depth)
		}
	}
}

// anyMessage writes an Any as its message's fields with "@type", or, for
// a well-known type, {"@type", "value"}.
func (j *jsonWriter) anyMessage(m protoreflect.Message, depth int) error {
	fields := m.Descriptor().Fields()
	url := m.Get(fields.ByName("type_url")).String()
	value := m.Get(fields.ByName("value")).Bytes()
	if url == "" && len(value) == 0 {
		j.w.WriteString("{}")
		return nil
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByURL(url)
	if err != nil {
		return fmt.Errorf("render: Any of type %q: %w", url, err)
	}
	inner := mt.New()
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(value, inner.Interface()); err != nil {
		return fmt.Errorf("render: Any of type %q: %w", url, err)
	}
	if _, ok := wellKnown[inner.Descriptor().FullName()]; ok {
		keys := [2]string{"@type", "value"}
		return j.object(2, depth, func(i int) string { return keys[i] }, func(i int) error {
			if i == 0 {
				j.string(url)
				return nil
			}
			return j.message(inner, depth+1)
		})
	}
	members, err := fieldsOf(inner, []member{{name: "@type", typeURL: url}})
	if err != nil {
		return err
	}
	return j.fields(members, depth)
}

// duration writes "<seconds>[.<fraction>]s", the fraction in 3, 6 or 9
// digits.
func (j *jsonWriter) duration(m protoreflect.Message, _ int) error {
	fields := m.Descriptor().Fields()
	secs, nanos := m.Get(fields.ByName("seconds")).Int(), m.Get(fields.ByName("nanos")).Int()
	if secs < -315576000000 || secs > 315576000000 || nanos <= -1e9 || nanos >= 1e9 || (secs > 0 && nanos < 0) || (secs < 0 && nanos > 0) {
		return fmt.Errorf("render: %s: out of range", m.Descriptor().FullName())
	}
	sign := ""
	if secs < 0 || nanos < 0 {
		sign, secs, nanos = "-", -secs, -nanos
	}
	j.string(sign + strconv.FormatInt(secs, 10) + fraction(nanos) + "s")
	return nil
}

// timestamp writes RFC 3339 in UTC, the fraction in 3, 6 or 9 digits.
func (j *jsonWriter) timestamp(m protoreflect.Message, _ int) error {
	fields := m.Descriptor().Fields()
	secs, nanos := m.Get(fields.ByName("seconds")).Int(), m.Get(fields.ByName("nanos")).Int()
	if secs < -62135596800 || secs > 253402300799 || nanos < 0 || nanos >= 1e9 {
		return fmt.Errorf("render: %s: out of range", m.Descriptor().FullName())
	}
	j.string(time.Unix(secs, 0).UTC().Format("2006-01-02T15:04:05") + fraction(nanos) + "Z")
	return nil
}

// fraction is nanos as protojson writes a fraction: none, or 3, 6 or 9
// digits after a dot.
func fraction(nanos int64) string {
	if nanos == 0 {
		return ""
	}
	s := fmt.Sprintf("%09d", nanos)
	for strings.HasSuffix(s, "000") {
		s = s[:len(s)-3]
	}
	return "." + s
}

func (j *jsonWriter) structMessage(m protoreflect.Message, depth int) error {
	fd := m.Descriptor().Fields().ByName("fields")
	return j.field(fd, m.Get(fd), depth)
}

// valueMessage writes a Value as the JSON value it holds.
func (j *jsonWriter) valueMessage(m protoreflect.Message, depth int) error {
	od := m.Descriptor().Oneofs().ByName("kind")
	fd := m.WhichOneof(od)
	if fd == nil {
		return fmt.Errorf("render: %s: no value set", m.Descriptor().FullName())
	}
	v := m.Get(fd)
	if fd.Kind() == protoreflect.DoubleKind && (math.IsNaN(v.Float()) || math.IsInf(v.Float(), 0)) {
		return fmt.Errorf("render: %s: %v is not a JSON number", m.Descriptor().FullName(), v.Float())
	}
	return j.single(fd, v, depth)
}

// fieldMask writes the paths in lowerCamelCase, joined by commas.
func (j *jsonWriter) fieldMask(m protoreflect.Message, _ int) error {
	l := m.Get(m.Descriptor().Fields().ByName("paths")).List()
	paths := make([]string, l.Len())
	for i := range paths {
		p := l.Get(i).String()
		var b strings.Builder
		upper := false
		for k := 0; k < len(p); k++ {
			c := p[k]
			switch {
			case c == '_':
				upper = true
			case upper && c >= 'a' && c <= 'z':
				b.WriteByte(c - 'a' + 'A')
				upper = false
			default:
				b.WriteByte(c)
				upper = false
			}
		}
		paths[i] = b.String()
	}
	j.string(strings.Join(paths, ","))
	return nil
}
