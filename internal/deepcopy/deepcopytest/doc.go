// Package deepcopytest checks, for the API packages' tests, that a
// hand-written DeepCopy copies everything: Check fills every exported field
// of a value by reflection, copies it, and fails when the copy differs,
// shares a pointer, slice or map with the original, or changes when the
// original is overwritten in place; ZeroFields guards the filling itself.
// A Walker's hooks handle the types a package knows better (a value with
// unexported state, such as HTTPProxy's Untranslated).
package deepcopytest
