// Package check says why a value from the user's objects cannot go into
// Envoy's configuration as it is: a path (Path), a header name
// (ValidHeaderName) or value (HeaderValue, ControlChars), an RE2 regular
// expression within Envoy's program size (Regex). Each returns a problem
// for a status message, bounded in size (package report), or "" when the
// value is fine. The rules are the same whatever source the value comes
// from.
package check
