package manifest

import (
	"reflect"
	"strings"
	"sync"
	"unicode"
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
// encoding/json decodes them: each name's field index, or nil for a name
// the tree decoder leaves to encoding/json (one that names several fields
// at the same depth, a ",string" field, one inside an embedded pointer).
var structFields sync.Map // reflect.Type -> map[string][]int

func structFieldsOf(t reflect.Type) map[string][]int {
	if m, ok := structFields.Load(t); ok {
		return m.(map[string][]int)
	}
	type candidate struct {
		index  []int
		depth  int
		tagged bool
		plain  bool // readable by the tree decoder
	}
	found := map[string][]candidate{}
	var walk func(t reflect.Type, index []int, depth int, plain bool)
	walk = func(t reflect.Type, index []int, depth int, plain bool) {
		for i := range t.NumField() {
			sf := t.Field(i)
			ft := sf.Type
			if sf.Anonymous {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if !validTag(name) {
				name = ""
			}
			at := append(append([]int(nil), index...), i)
			if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
				walk(ft, at, depth+1, plain && sf.Type.Kind() != reflect.Pointer)
				continue
			}
			tagged := name != ""
			if !tagged {
				name = sf.Name
			}
			stringOpt := false
			for opt := range strings.SplitSeq(opts, ",") {
				stringOpt = stringOpt || opt == "string"
			}
			found[name] = append(found[name], candidate{index: at, depth: depth, tagged: tagged, plain: plain && !stringOpt})
		}
	}
	walk(t, nil, 0, true)
	fields := make(map[string][]int, len(found))
	for name, cs := range found {
		// encoding/json: the shallowest fields of a name; of several, the
		// one tagged, if only one is; else none.
		least := cs[0].depth
		for _, c := range cs {
			least = min(least, c.depth)
		}
		var win *candidate
		n, tagged := 0, 0
		for i, c := range cs {
			if c.depth != least {
				continue
			}
			n++
			if c.tagged {
				tagged++
				win = &cs[i]
			} else if win == nil {
				win = &cs[i]
			}
		}
		switch {
		case n > 1 && tagged != 1, !win.plain:
			fields[name] = nil
		default:
			fields[name] = win.index
		}
	}
	structFields.Store(t, fields)
	return fields
}

// validTag is encoding/json's test of a tag's name: letters, digits and
// some punctuation; a name that fails it is not used.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
