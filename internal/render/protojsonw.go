package render

import (
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// message writes m as protojson would write it, decoded into generic JSON
// values and written again: populated fields by their JSON names, keys
// sorted, 64-bit integers as strings, enums by name, the well-known types
// in their JSON forms.
func message(e encoder, m protoreflect.Message) error {
	return writeMessage(e, m.Interface())
}

// reflectMessage is message through protoreflect: the well-known types,
// and messages a plan (plan.go) does not read.
func reflectMessage(e encoder, m protoreflect.Message) error {
	md := m.Descriptor()
	if w, ok := wellKnown[md.FullName()]; ok {
		return w(e, m)
	}
	e.beginObject()
	if err := fields(e, m); err != nil {
		return err
	}
	e.end()
	return nil
}

// fields writes the populated fields of m as members of an object, in
// e's order.
func fields(e encoder, m protoreflect.Message) error {
	s := e.scratch()
	start := len(s.fields)
	defer func() { s.fields = s.fields[:start] }()
	m.Range(s.collect)
	set := s.fields[start:]
	for _, f := range set {
		if f.fd.IsExtension() {
			return fmt.Errorf("render: %s: extensions are not rendered", m.Descriptor().FullName())
		}
	}
	ranks := e.fieldRanks(m.Descriptor())
	for i := 1; i < len(set); i++ { // few fields: insertion sort
		for j := i; j > 0 && ranks[set[j].fd.Index()] < ranks[set[j-1].fd.Index()]; j-- {
			set[j], set[j-1] = set[j-1], set[j]
		}
	}
	for i := start; i < start+len(set); i++ {
		f := s.fields[i] // by index: writing f's value may grow s.fields
		e.key(f.fd.JSONName())
		if err := field(e, f.fd, f.v); err != nil {
			return err
		}
	}
	return nil
}

// field writes the value of fd, a list, a map or a single value.
func field(e encoder, fd protoreflect.FieldDescriptor, v protoreflect.Value) error {
	switch {
	case fd.IsList():
		l := v.List()
		if fd.Message() != nil && l.Len() >= splitAt && e.streams() {
			// A long list of messages (a route configuration's virtual
			// hosts, a virtual host's routes) is rendered several items
			// at once.
			return e.lazy(lazyMessages(l))
		}
		e.beginArray()
		for i := range l.Len() {
			e.item()
			if err := single(e, fd, l.Get(i)); err != nil {
				return err
			}
		}
		e.end()
		return nil
	case fd.IsMap():
		entries := map[string]protoreflect.Value{}
		keys := []string{}
		var err error
		v.Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
			key := k.String()
			if !utf8.ValidString(key) {
				err = fmt.Errorf("render: field %s has invalid UTF-8", fd.FullName())
				return false
			}
			keys = append(keys, key)
			entries[key] = v
			return true
		})
		if err != nil {
			return err
		}
		sortKeys(keys, e.compareKeys)
		e.beginObject()
		for _, k := range keys {
			e.key(k)
			if err := single(e, fd.MapValue(), entries[k]); err != nil {
				return err
			}
		}
		e.end()
		return nil
	}
	return single(e, fd, v)
}

// single writes one value of a field of kind fd.Kind().
func single(e encoder, fd protoreflect.FieldDescriptor, v protoreflect.Value) error {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		return enum(e, fd, v.Enum())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return message(e, v.Message())
	}
	return scalar(e, fd, v)
}

// scalarValue is a value of a scalar field as protoreflect or reflect
// (plan.go) gives it.
type scalarValue interface {
	Bool() bool
	Int() int64
	Uint() uint64
	Float() float64
	String() string
	Bytes() []byte
}

// scalar writes v, a value of fd, of a kind other than enum and message.
func scalar[V scalarValue](e encoder, fd protoreflect.FieldDescriptor, v V) error {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		e.bool(v.Bool())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		e.float(float64(v.Int()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		e.float(float64(v.Uint()))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		e.string(strconv.FormatInt(v.Int(), 10))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		e.string(strconv.FormatUint(v.Uint(), 10))
	case protoreflect.FloatKind:
		return protoFloat(e, v.Float(), 32)
	case protoreflect.DoubleKind:
		return protoFloat(e, v.Float(), 64)
	case protoreflect.StringKind:
		if !utf8.ValidString(v.String()) {
			return fmt.Errorf("render: field %s has invalid UTF-8", fd.FullName())
		}
		e.string(v.String())
	case protoreflect.BytesKind:
		e.string(base64.StdEncoding.EncodeToString(v.Bytes()))
	default:
		return fmt.Errorf("render: field %s: unknown kind %v", fd.FullName(), fd.Kind())
	}
	return nil
}

// enum writes n, a value of enum field fd, by its name (a number unknown
// to the enum as a number), NullValue as null.
func enum(e encoder, fd protoreflect.FieldDescriptor, n protoreflect.EnumNumber) error {
	if fd.Enum().FullName() == "google.protobuf.NullValue" {
		e.null()
		return nil
	}
	if ev := fd.Enum().Values().ByNumber(n); ev != nil {
		e.string(string(ev.Name()))
	} else {
		e.float(float64(n))
	}
	return nil
}

// protoFloat writes a float or double as protojson does, read back as a
// float64: NaN and the infinities as strings, a float by its shortest
// 32-bit form.
func protoFloat(e encoder, f float64, bits int) error {
	switch {
	case math.IsNaN(f):
		e.string("NaN")
	case math.IsInf(f, 1):
		e.string("Infinity")
	case math.IsInf(f, -1):
		e.string("-Infinity")
	default:
		if bits == 32 {
			var err error
			if f, err = strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64); err != nil {
				return err
			}
		}
		e.float(f)
	}
	return nil
}

// wellKnown are the messages protojson writes in a form of their own.
var wellKnown map[protoreflect.FullName]func(e encoder, m protoreflect.Message) error

func init() {
	wellKnown = map[protoreflect.FullName]func(encoder, protoreflect.Message) error{
		"google.protobuf.Any":       anyMessage,
		"google.protobuf.Duration":  duration,
		"google.protobuf.Timestamp": timestamp,
		"google.protobuf.Struct":    onlyField("fields"),
		"google.protobuf.ListValue": onlyField("values"),
		"google.protobuf.Value":     valueMessage,
		"google.protobuf.FieldMask": fieldMask,
	}
	for _, w := range []protoreflect.FullName{"DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value", "BoolValue", "StringValue", "BytesValue"} {
		wellKnown["google.protobuf."+w] = onlyField("value")
	}
}

// onlyField writes a message that protojson writes as its one field.
func onlyField(name protoreflect.Name) func(encoder, protoreflect.Message) error {
	return func(e encoder, m protoreflect.Message) error {
		fd := m.Descriptor().Fields().ByName(name)
		return field(e, fd, m.Get(fd))
	}
}

// anyMessage writes an Any as its message's fields with "@type", or, for
// a well-known type, {"@type", "value"}.
func anyMessage(e encoder, m protoreflect.Message) error {
	fds := m.Descriptor().Fields()
	url := m.Get(fds.ByName("type_url")).String()
	value := m.Get(fds.ByName("value")).Bytes()
	if url == "" && len(value) == 0 {
		e.beginObject()
		e.end()
		return nil
	}
	inner, err := e.doc().unpacked().unpack(url, value)
	if err != nil {
		return err
	}
	e.beginObject()
	e.key("@type") // first in both orders: '@' sorts before letters
	e.string(url)
	if _, ok := wellKnown[inner.Descriptor().FullName()]; ok {
		e.key("value")
		err = message(e, inner)
	} else if p := e.plans().get(reflect.TypeOf(inner.Interface())); p.viaReflect {
		err = fields(e, inner)
	} else {
		err = p.members(e, reflect.ValueOf(inner.Interface()).UnsafePointer())
	}
	if err != nil {
		return err
	}
	e.end()
	return nil
}

// anyCache holds the messages a document's Anys hold, unpacked once for
// all the Anys of the same bytes: every cluster of a translation has one
// of the same protocol options. The messages are only read once unpacked.
type anyCache struct {
	mu     sync.RWMutex
	byType map[string]map[string]protoreflect.Message // type URL, value
}

// unpack is the message of type url encoded in value; a nil cache keeps
// none.
func (c *anyCache) unpack(url string, value []byte) (protoreflect.Message, error) {
	if c != nil {
		c.mu.RLock()
		m, ok := c.byType[url][string(value)]
		c.mu.RUnlock()
		if ok {
			return m, nil
		}
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByURL(url)
	if err != nil {
		return nil, fmt.Errorf("render: Any of type %q: %w", url, err)
	}
	m := mt.New()
	if err := (proto.UnmarshalOptions{AllowPartial: true}).Unmarshal(value, m.Interface()); err != nil {
		return nil, fmt.Errorf("render: Any of type %q: %w", url, err)
	}
	if c != nil {
		c.mu.Lock()
		if c.byType == nil {
			c.byType = map[string]map[string]protoreflect.Message{}
		}
		if c.byType[url] == nil {
			c.byType[url] = map[string]protoreflect.Message{}
		}
		c.byType[url][string(value)] = m
		c.mu.Unlock()
	}
	return m, nil
}

// duration writes "<seconds>[.<fraction>]s", the fraction in 3, 6 or 9
// digits.
func duration(e encoder, m protoreflect.Message) error {
	fields := m.Descriptor().Fields()
	secs, nanos := m.Get(fields.ByName("seconds")).Int(), m.Get(fields.ByName("nanos")).Int()
	if secs < -315576000000 || secs > 315576000000 || nanos <= -1e9 || nanos >= 1e9 || (secs > 0 && nanos < 0) || (secs < 0 && nanos > 0) {
		return fmt.Errorf("render: %s: out of range", m.Descriptor().FullName())
	}
	sign := ""
	if secs < 0 || nanos < 0 {
		sign, secs, nanos = "-", -secs, -nanos
	}
	e.string(sign + strconv.FormatInt(secs, 10) + fraction(nanos) + "s")
	return nil
}

// timestamp writes RFC 3339 in UTC, the fraction in 3, 6 or 9 digits.
func timestamp(e encoder, m protoreflect.Message) error {
	fields := m.Descriptor().Fields()
	secs, nanos := m.Get(fields.ByName("seconds")).Int(), m.Get(fields.ByName("nanos")).Int()
	if secs < -62135596800 || secs > 253402300799 || nanos < 0 || nanos >= 1e9 {
		return fmt.Errorf("render: %s: out of range", m.Descriptor().FullName())
	}
	e.string(time.Unix(secs, 0).UTC().Format("2006-01-02T15:04:05") + fraction(nanos) + "Z")
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

// valueMessage writes a Value as the JSON value it holds.
func valueMessage(e encoder, m protoreflect.Message) error {
	od := m.Descriptor().Oneofs().ByName("kind")
	fd := m.WhichOneof(od)
	if fd == nil {
		return fmt.Errorf("render: %s: no value set", m.Descriptor().FullName())
	}
	v := m.Get(fd)
	if fd.Kind() == protoreflect.DoubleKind && (math.IsNaN(v.Float()) || math.IsInf(v.Float(), 0)) {
		return fmt.Errorf("render: %s: %v is not a JSON number", m.Descriptor().FullName(), v.Float())
	}
	return single(e, fd, v)
}

// fieldMask writes the paths in lowerCamelCase, joined by commas.
func fieldMask(e encoder, m protoreflect.Message) error {
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
	e.string(strings.Join(paths, ","))
	return nil
}
