// Package jsonfields resolves a struct type's fields as encoding/json
// does: which Go field each JSON name reads and writes, through embedded
// structs, with the options of its tag; which values omitempty leaves out;
// and which of the interfaces encoding/json calls a type implements. Sesame's own readers and writers
// of Go values (the manifest decoder's tree decoder, the renderer's walk
// of status objects) take encoding/json's place on the paths they know,
// and must agree with it on every name; encoding/json keeps these rules
// to itself (its typeFields is unexported), so they are written here,
// once, and cached per type.
//
// The rules: exported fields, and the fields of embedded structs (also
// unexported ones, and through pointers) as if they were the outer
// struct's; a tag's name, else the Go name (a tag name encoding/json
// finds invalid is not used); "-" leaves a field out. Of several fields
// of one name, the shallowest wins, and of those at one depth the one
// tagged, if only one is; when none wins, the name is not read or written
// at all.
package jsonfields
