// Package xdstest is what tests of package xdsserver, and of the
// integration module's real clients, share: a server started on a
// loopback port and stopped with the test, and a log kept for the test to
// read, and a buffer a server or process writes while the test reads it.
// It imports package testing, as net/http/httptest does, and is
// used by tests only.
package xdstest
