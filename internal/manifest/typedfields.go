package manifest

import (
	"reflect"

	"github.com/projectsesame/sesame/internal/jsonfields"
	"github.com/projectsesame/sesame/internal/typecache"
)

// What the tree decoder (typed.go) knows of Go types, as encoding/json
// knows it, is made once per type and kept: a typePlan. Asking it of
// reflect and of the caches behind jsonfields for every value (which
// interfaces a type implements, which field a JSON name decodes into) was
// a tenth of reading.

// typePlan is what the tree decoder knows of Go type t.
type typePlan struct {
	t       reflect.Type
	kind    reflect.Kind
	methods jsonfields.Methods // of t: which of encoding/json's interfaces *t implements
	known   bool               // a type known decodes itself
	bytes   bool               // a []byte, read from base64
	// elem is the plan of a pointer's, slice's or map's element type; key
	// the methods of a map's key type.
	elem *typePlan
	key  jsonfields.Methods
	// fields are a struct's fields by JSON name, as encoding/json decodes
	// them; nil for a name the tree decoder leaves to encoding/json (a
	// ",string" field, one inside an embedded pointer).
	fields map[string]*fieldPlan
}

// fieldPlan is a struct field a JSON name decodes into.
type fieldPlan struct {
	index []int
	plan  *typePlan
}

// typePlans holds every plan made.
var typePlans typecache.Cache[*typePlan]

// planOf is the plan of t.
func planOf(t reflect.Type) *typePlan { return typePlans.Get(t, makePlan) }

// makePlan is the plan of t, made with those of every type it reaches, in
// made.
func makePlan(t reflect.Type, made map[reflect.Type]*typePlan) *typePlan {
	if p, ok := typePlans.Made(t, made); ok {
		return p
	}
	p := &typePlan{t: t, kind: t.Kind(), known: t == timeType || t == intOrStringType}
	made[t] = p
	if p.kind != reflect.Pointer {
		p.methods = jsonfields.MethodsOf(t)
	}
	switch p.kind {
	case reflect.Pointer, reflect.Slice:
		p.bytes = p.kind == reflect.Slice && t.Elem().Kind() == reflect.Uint8
		p.elem = makePlan(t.Elem(), made)
	case reflect.Map:
		p.key = jsonfields.MethodsOf(t.Key())
		p.elem = makePlan(t.Elem(), made)
	case reflect.Struct:
		all := jsonfields.Of(t)
		p.fields = make(map[string]*fieldPlan, len(all))
		for _, f := range all {
			if f.Quoted || f.ViaPointer {
				p.fields[f.Name] = nil
				continue
			}
			p.fields[f.Name] = &fieldPlan{index: f.Index, plan: makePlan(t.FieldByIndex(f.Index).Type, made)}
		}
	}
	return p
}
