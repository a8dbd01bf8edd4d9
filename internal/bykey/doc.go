// Package bykey orders many values by keys packed into one buffer.
//
// Sorting a slice of structs or pointers by fields that are strings reads
// every string where it lives: for objects decoded from the API server, all
// over the heap, so most comparisons miss the cache; and each swap of a
// value holding pointers pays the garbage collector's write barrier while
// it marks. Keys packs each value's key, field after field, into one byte
// buffer, sorts small index records without pointers, and gives the order
// (Order); the values are then moved once (Permute).
package bykey
