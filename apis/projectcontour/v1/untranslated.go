package v1

import (
	"bytes"
	"encoding/json"
)

// Untranslated is a field Sesame decodes but does not translate: its JSON,
// kept as written. A nil *Untranslated is an absent (or null) field.
//
// Package dag only asks whether such a field is Set, so that a route asking
// for, say, an IP allow list is never served without one.
type Untranslated struct {
	raw json.RawMessage
}

// NewUntranslated returns an Untranslated holding raw, which must be JSON.
func NewUntranslated(raw string) *Untranslated {
	return &Untranslated{raw: json.RawMessage(raw)}
}

// Set reports whether u asks for anything: it is present and neither null
// nor an empty list. An empty object counts as set, because a policy with
// only defaults is still a policy.
func (u *Untranslated) Set() bool {
	if u == nil {
		return false
	}
	v := bytes.TrimSpace(u.raw)
	return len(v) > 0 && !bytes.Equal(v, []byte("null")) && !isEmptyList(v)
}

func isEmptyList(v []byte) bool {
	return len(v) >= 2 && v[0] == '[' && len(bytes.TrimSpace(v[1:len(v)-1])) == 0 && v[len(v)-1] == ']'
}

// Raw returns the JSON as written.
func (u *Untranslated) Raw() []byte {
	if u == nil {
		return nil
	}
	return u.raw
}

// UnmarshalJSON keeps a copy of data.
func (u *Untranslated) UnmarshalJSON(data []byte) error {
	u.raw = append(json.RawMessage(nil), data...)
	return nil
}

// MarshalJSON writes the JSON as it was read, or null.
func (u Untranslated) MarshalJSON() ([]byte, error) {
	if len(u.raw) == 0 {
		return []byte("null"), nil
	}
	return u.raw, nil
}
