// Package typecache keeps a value made once per Go type for the life of
// the program, as encoding/json keeps its struct fields: the render's
// message plans and the manifest decoder's type plans. A value may refer
// to the values of the types it reaches, cycles included: Get makes them
// together under one lock and publishes them together, complete, so that
// readers, who take no lock, never see one half made.
package typecache
