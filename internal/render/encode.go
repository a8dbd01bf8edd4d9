package render

// encoder is a writer of one format: the walks of generic values
// (writeValue) and of Envoy messages (message, protojsonw.go) call it, and
// it lays the values out as its format does. Containers take their items
// as callbacks, so that an encoder knows where each item goes (its depth,
// its column) before the item is written.
type encoder interface {
	null()
	bool(b bool)
	float(f float64)
	string(s string)
	// array writes a list of n items, item writing item i.
	array(n int, item func(i int) error) error
	// object writes an object of n members, in the order of their keys
	// the format sorts them in; value writes member i's value.
	object(n int, key func(i int) string, value func(i int) error) error
	// lazy writes a lazy list (lazy.go), its items rendered several at
	// once (stream.go).
	lazy(l *lazyList) error
}

// writeValue writes v, a generic JSON value (from encoding/json), which
// may hold lazy lists and Envoy messages.
func writeValue(e encoder, v any) error {
	switch x := v.(type) {
	case nil:
		e.null()
	case bool:
		e.bool(x)
	case float64:
		e.float(x)
	case string:
		e.string(x)
	case []any:
		return e.array(len(x), func(i int) error { return writeValue(e, x[i]) })
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		return e.object(len(keys), func(i int) string { return keys[i] }, func(i int) error {
			return writeValue(e, x[keys[i]])
		})
	case *lazyList:
		return e.lazy(x)
	case protoMsg:
		return message(e, x.m.ProtoReflect())
	default:
		panic("render: not a JSON value") // values come from encoding/json or lazy.go
	}
	return nil
}
