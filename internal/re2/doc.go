// Package re2 measures regular expressions the way Envoy will judge them.
//
// Envoy compiles every safe_regex with Google's RE2 and refuses, by default,
// a program of more than 100 instructions (re2.max_program_size.error_level);
// a refused route table takes every route of its listener down with it. Go's
// regexp/syntax compiles the same syntax to a comparable program, from which
// Size estimates RE2's count, so that Sesame can refuse such an expression
// with a clear message instead of sending Envoy configuration it rejects.
// Both HTTPRoute matches (package dag) and generated UpstreamCluster matchers
// (package dispatch/envoy) are measured here.
//
// Every expression Sesame reads from an object is parsed through this
// package (Size, Parse, CompileFull), which refuses one longer than
// MaxLength before parsing it: parsing costs time and memory in proportion to
// the length, and a megabyte-long expression would cost seconds only to be
// refused for its size.
package re2
