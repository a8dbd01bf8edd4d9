// Package txtar reads and writes the txtar archive format of the Go tree's
// tests: a free-form comment, then files, each introduced by a line
// "-- name --". Sesame's golden cases are txtar files: the input objects and
// the expected output side by side in one file a person can read.
package txtar
