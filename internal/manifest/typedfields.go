package manifest

import (
	"reflect"
	"sync"

	"github.com/projectsesame/sesame/internal/jsonfields"
)

// What the tree decoder (typed.go) knows of Go types, as encoding/json
// knows it: which struct field each JSON name decodes into, cached per
// type (which types read their own JSON is jsonfields.MethodsOf).

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
