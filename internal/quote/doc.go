// Package quote bounds what messages echo of their input: a value a message
// quotes is cut to its first MaxValue bytes with a marker saying how long it
// was (Value), and a whole message to a limit (Cap). Messages of every
// package that quotes user input (dag's status and Events, hostmatch's
// errors) go through it, so that a 1 MB regular expression or hostname in
// an object never becomes a 1 MB status message, which the API server
// would refuse. Plural words a count for such messages.
package quote
