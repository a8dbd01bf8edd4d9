package manifest

import (
	"strings"

	"github.com/projectsesame/sesame/internal/jsonscan"
)

// readHead reads apiVersion, kind and metadata's name and namespace from
// data, one JSON document, as json.Unmarshal into a typeMeta reads them,
// without decoding the rest: every document is read this way before its
// object is, and encoding/json's scan of the whole document for four
// strings was a sixth of reading a large manifest. It says false when it
// is unsure (those keys holding anything but strings, keys that differ
// from them only in case, which encoding/json matches too, nesting near
// encoding/json's limit), and the caller takes json.Unmarshal's path.
// FuzzReadHead holds it to json.Unmarshal.
func readHead(data []byte) (typeMeta, bool) {
	var head typeMeta
	r := headReader{data: data}
	ok := r.object(func(key string) bool {
		switch key {
		case "apiVersion":
			return r.str(&head.APIVersion)
		case "kind":
			return r.str(&head.Kind)
		case "metadata":
			return r.object(func(key string) bool {
				switch key {
				case "name":
					return r.str(&head.Metadata.Name)
				case "namespace":
					return r.str(&head.Metadata.Namespace)
				}
				if strings.EqualFold(key, "name") || strings.EqualFold(key, "namespace") {
					return false
				}
				return r.skip()
			})
		}
		if strings.EqualFold(key, "apiVersion") || strings.EqualFold(key, "kind") || strings.EqualFold(key, "metadata") {
			return false
		}
		return r.skip()
	})
	if !ok {
		return typeMeta{}, false
	}
	r.space()
	return head, r.i == len(data)
}

// headReader reads JSON that encoding/json would accept; it gives up
// (false) on anything else.
type headReader struct {
	data []byte
	i    int
}

func (r *headReader) space() { r.i = jsonscan.Space(r.data, r.i) }

// object reads an object, member calls reading each member's value after
// its key.
func (r *headReader) object(member func(key string) bool) bool {
	r.space()
	if r.i >= len(r.data) || r.data[r.i] != '{' {
		return false
	}
	r.i++
	r.space()
	if r.i < len(r.data) && r.data[r.i] == '}' {
		r.i++
		return true
	}
	for {
		var key string
		if !r.str(&key) {
			return false
		}
		r.space()
		if r.i >= len(r.data) || r.data[r.i] != ':' {
			return false
		}
		r.i++
		if !member(key) {
			return false
		}
		r.space()
		if r.i >= len(r.data) {
			return false
		}
		switch r.data[r.i] {
		case ',':
			r.i++
			r.space()
		case '}':
			r.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string into s (jsonscan.String).
func (r *headReader) str(s *string) bool {
	r.space()
	v, end, ok := jsonscan.String(r.data, r.i)
	if ok {
		*s, r.i = v, end
	}
	return ok
}

// skip steps over a value of any kind.
func (r *headReader) skip() bool {
	var ok bool
	r.i, ok = jsonscan.Skip(r.data, jsonscan.Space(r.data, r.i))
	return ok
}
