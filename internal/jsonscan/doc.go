// Package jsonscan steps over JSON text without decoding it: Space skips
// white space, Skip a whole value, strings by their quotes (escapes and
// all) and containers by their brackets; String decodes one string as
// encoding/json does (FuzzString). It trusts the text to be JSON as
// far as strings and brackets go, and says false when the text runs out
// or nests deeper than encoding/json would read. The readers that decode
// only part of a document (internal/manifest's readHead, internal/render's
// JSON text walker) use it to find where the parts they skip end.
package jsonscan
