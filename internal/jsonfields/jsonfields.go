package jsonfields

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Field is the field encoding/json reads and writes under Name.
type Field struct {
	Name  string
	Index []int // for reflect.Value.FieldByIndex
	// The tag's options.
	OmitEmpty, OmitZero, Quoted bool // omitempty, omitzero, string
	// ViaPointer says the field is inside an embedded pointer to a struct,
	// which encoding/json allocates to read the field and skips, when nil,
	// to write it.
	ViaPointer bool
}

var cache sync.Map // reflect.Type -> []Field

// Of returns the fields of struct type t in the order of their
// declaration, as encoding/json sees them.
func Of(t reflect.Type) []Field {
	if f, ok := cache.Load(t); ok {
		return f.([]Field)
	}
	type candidate struct {
		Field
		depth  int
		tagged bool
		order  int
	}
	byName := map[string][]candidate{}
	n := 0
	var walk func(t reflect.Type, index []int, depth int, viaPointer bool)
	walk = func(t reflect.Type, index []int, depth int, viaPointer bool) {
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
			if !validName(name) {
				name = ""
			}
			at := append(append([]int(nil), index...), i)
			if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
				walk(ft, at, depth+1, viaPointer || sf.Type.Kind() == reflect.Pointer)
				continue
			}
			c := candidate{Field: Field{Name: name, Index: at, ViaPointer: viaPointer}, depth: depth, tagged: name != "", order: n}
			n++
			if name == "" {
				c.Name = sf.Name
			}
			for opt := range strings.SplitSeq(opts, ",") {
				switch opt {
				case "omitempty":
					c.OmitEmpty = true
				case "omitzero":
					c.OmitZero = true
				case "string":
					c.Quoted = true
				}
			}
			byName[c.Name] = append(byName[c.Name], c)
		}
	}
	walk(t, nil, 0, false)
	var won []candidate
	for _, cs := range byName {
		least := cs[0].depth
		for _, c := range cs {
			least = min(least, c.depth)
		}
		var win *candidate
		at, tagged := 0, 0
		for i, c := range cs {
			if c.depth != least {
				continue
			}
			at++
			if c.tagged {
				tagged++
				win = &cs[i]
			} else if win == nil {
				win = &cs[i]
			}
		}
		if at == 1 || tagged == 1 {
			won = append(won, *win)
		}
	}
	fields := make([]Field, len(won))
	slices.SortFunc(won, func(a, b candidate) int { return a.order - b.order })
	for i, c := range won {
		fields[i] = c.Field
	}
	cache.Store(t, fields)
	return fields
}

// Empty is encoding/json's test for omitempty: false, 0, "", a nil
// pointer or interface, an empty array, slice or map. A struct is never
// empty.
func Empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// validName is encoding/json's test of a tag's name: letters, digits and
// some punctuation.
func validName(s string) bool {
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
