// Package hostmatch is the single source of truth for hostnames in Sesame:
// which strings are hostnames, which request hosts a hostname matches, how
// two hostnames relate, how a route's hostnames meet a listener's, and what
// Envoy needs to enforce the result. A hostname is a string, either precise
// ("foo.example.com") or wildcard ("*.example.com"); the empty string stands
// for "no hostname", which matches every host. Validate and ValidatePrecise
// decide which strings are hostnames and explain, with a byte offset, why a
// string is not one. Match, Relate, Compare, Intersect and Attach assume
// valid hostnames (or "") and are pure: they keep no state, never panic on
// any input, and Match and HostOfAuthority never allocate. A Set indexes
// many hostnames, such as those of the listeners on one port, so that the
// ones containing a hostname, or contained in it, are found by lookups.
// Wildcards mean different things in different places, so every function
// that interprets one takes a Mode; Sesame passes Suffix for Gateway API
// objects and SingleLabel for HTTPProxy. Request hosts are compared ASCII
// case-insensitively, because the HTTP Host header is case-insensitive;
// hostnames themselves must be lower case.
//
// # Gateway API v1 and the seeds
//
// The design seeds (000 and 001, "Hostname matching") were written against
// an early draft of the Gateway API. Gateway API v1 differs, and this package
// follows v1 for Gateway API objects. Every difference, and what Sesame does:
//
//   - What a wildcard matches. The seeds say "the wildcard must match only a
//     single label" and define a "domain match" as a match "after the first
//     DNS label is discarded": "*.example.com" matches "a.example.com" but
//     not "a.b.example.com". Gateway API v1 (HTTPRouteSpec.Hostnames and
//     Listener.Hostname) says wildcards "are interpreted as a suffix match":
//     "*.example.com" matches "test.example.com" and "foo.test.example.com"
//     but never "example.com". Sesame uses Suffix for Gateway, HTTPRoute and
//     the other Gateway API routes, and SingleLabel for HTTPProxy and for the
//     seeds' single-label mode. Under SingleLabel the wildcards
//     "*.example.com" and "*.foo.example.com" match disjoint sets of hosts;
//     under Suffix the second is more specific than the first.
//
//   - A lone "*". Neither the CRD pattern nor this package accepts "*" as a
//     hostname; to match every host, omit the hostname. Validate's message
//     says so.
//
//   - IP addresses. Both the seeds and v1 say IPs are not hostnames, but the
//     CRD pattern admits dotted quads such as "10.0.0.1" (every part is a
//     valid label). Validate rejects every string net/netip parses as an
//     address (and bracketed IPv6 such as "[::1]"), so an IP never reaches
//     Envoy as a virtual host domain. Strings netip does not accept, such as
//     "1.2.3" or "010.0.0.1", are valid hostnames made of numeric labels.
//
//   - Label length. The CRD pattern does not limit label length; RFC 1123,
//     which the API cites, limits labels to 63 bytes, and so does Validate.
//
//   - Precedence. v1 orders listeners "from the most specific to least
//     specific": precise before wildcard before none, and among wildcards "the
//     higher the number of dots in the hostname to the right of the wildcard
//     character, the higher the precedence". Compare is that order, made total
//     by breaking ties by length (more characters first, as the HTTPRoute
//     precedence rule does) and then bytes.
//
//   - Listener Isolation. v1 says a request SHOULD match at most one
//     listener: with listeners "foo.example.com" and "*.example.com" on one
//     port, a request for "foo.example.com" is served only by the routes of
//     the first. The seeds predate this. Attach implements it: a route on the
//     wildcard listener does not serve hostnames that a more specific sibling
//     listener covers completely.
//
//   - Envoy. Envoy's virtual host domain "*.example.com" is itself a suffix
//     match of one or more labels, so Domain returns the hostname unchanged
//     for both modes. SingleLabel needs more: AuthorityRegex gives a regular
//     expression for an :authority header matcher that admits exactly one
//     label before the suffix. Ports are ignored by configuring Envoy's
//     ignore_port_in_host_matching, not by rewriting the Host header, because
//     v1 requires the header to be forwarded unmodified.
package hostmatch
