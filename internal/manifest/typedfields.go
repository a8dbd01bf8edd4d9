package manifest

import (
	"reflect"
	"sync"

	"github.com/projectsesame/sesame/internal/jsonfields"
)

// What the tree decoder (typed.go) knows of Go types, as encoding/json
// knows it: which types read their own JSON, and which struct field each
// JSON name decodes into. Both are cached per type.

// unmarshalers says which of json.Unmarshaler and
// encoding.TextUnmarshaler a pointer to a type implements.
type unmarshalers uint8

const (
	jsonU unmarshalers = 1 << iota
	textU
)

// typeUnmarshalers caches unmarshalersOf: reflect's Implements walks the
// method set, and it was half of the tree decoder's time.
var typeUnmarshalers sync.Map // reflect.Type -> unmarshalers

func unmarshalersOf(t reflect.Type) unmarshalers {
	if u, ok := typeUnmarshalers.Load(t); ok {
		return u.(unmarshalers)
	}
	var u unmarshalers
	if pt := reflect.PointerTo(t); pt.Implements(jsonUnmarshaler) {
		u |= jsonU
	} else if pt.Implements(textUnmarshaler) {
		u |= textU
	}
	typeUnmarshalers.Store(t, u)
	return u
}

// structFields are the JSON names of each struct type's fields, as
// encoding/json decodes them (jsonfields): each name's field index, or nil
// for a name the tree decoder leaves to encoding/json (a ",string" field,
// one inside an embedded pointer).
var structFields sync.Map // reflect.Type -> map[string][]int

func structFieldsOf(t reflect.Type) map[string][]int {
	if m, ok := structFields.Load(t); ok {
		return m.(map[string][]int)
	}
	all := jsonfields.Of(t)
	fields := make(map[string][]int, len(all))
	for _, f := range all {
		if f.Quoted || f.ViaPointer {
			fields[f.Name] = nil
		} else {
			fields[f.Name] = f.Index
		}
	}
	structFields.Store(t, fields)
	return fields
}
