package manifest

import (
	"bytes"
	"strings"

	"github.com/projectsesame/sesame/internal/jsonscan"
)

// readHead reads apiVersion, kind and metadata's name and namespace from
// data, one JSON document, as json.Unmarshal into a typeMeta reads them,
// without decoding the rest: every document is read this way before its
// object is, and encoding/json's scan of the whole document for four
// strings was a sixth of reading a large manifest. It says false when it
// is unsure (data that is not an object of simple strings where those
// keys are, keys that differ from them only in case, which encoding/json
// matches too), and the caller takes json.Unmarshal's path.
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
				case "":
					return false
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
// its key (of no escapes; "" for one with any, which member refuses).
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
		if !r.str(&key) || key == "" {
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

// str reads a string without escapes or control characters into s.
func (r *headReader) str(s *string) bool {
	r.space()
	if r.i >= len(r.data) || r.data[r.i] != '"' {
		return false
	}
	end := bytes.IndexByte(r.data[r.i+1:], '"')
	if end < 0 {
		return false
	}
	v := r.data[r.i+1 : r.i+1+end]
	for _, c := range v {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return false // escapes, and UTF-8 that encoding/json might replace
		}
	}
	*s = string(v)
	r.i += end + 2
	return true
}

// skip steps over a value of any kind.
func (r *headReader) skip() bool {
	var ok bool
	r.i, ok = jsonscan.Skip(r.data, jsonscan.Space(r.data, r.i))
	return ok
}
