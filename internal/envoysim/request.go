// The request as the router sees it.
//
// By the time Envoy's router looks at a request, the HTTP connection manager
// has turned it into one header map: names are lower case, the request line
// is the pseudo-headers :method, :path, :scheme and :authority (HTTP/1's Host
// header becomes :authority), and :scheme and x-forwarded-proto are the
// listener's scheme, whatever the client sent, as Sesame's connection
// managers (use_remote_address, no trusted hops) make them. A Request is the client's view, so newRequest builds that
// map once, and every matcher reads from it:
//
//	Request{Authority: "Shop.example.com:8080", Path: "/cart?id=7",
//	        Headers: {"X-Team": {"a"}, "x-team": {"b"}, "Cookie": {"s=1; t=2"}}}
//	scheme "http"
//	→ :authority "Shop.example.com:8080"  :method "GET"  :path "/cart?id=7"
//	  :scheme "http"  x-forwarded-proto "http"
//	  x-team ["a" "b"]   (names sorted before merging, so the order is fixed)
//	  cookie ["s=1; t=2"]
//
// The representation differs from the surface in three ways that matter to
// matching: header names are folded to lower case (ASCII only, like Envoy's
// LowerCaseString), names that differ only in case are merged into one list,
// and the query and fragment are split off the path once (pathOnly), because
// every path specifier ignores them.
//
// Two things the connection manager does before routing are not modelled:
// normalising the path (normalize_path, which Sesame's Gateway listeners set:
// "/public/../admin" reaches the router as "/admin"), so tests send paths
// already normalised; and the headers it adds (x-forwarded-for,
// x-request-id), which no Sesame route matches on.
//
// Query parameters and cookies are parsed on demand with Envoy's rules:
// QueryParamsMulti::parseQueryString, which splits on '&' and the first '='
// and does not percent-decode, and the router's cookie parser, which splits
// the Cookie header on ';', skips leading spaces and strips one pair of
// double quotes around a value. In both the first occurrence of a name wins.

package envoysim

import (
	"slices"
	"strings"
)

// request is a Request after the HTTP connection manager: one lower-cased
// header map with the pseudo-headers filled in.
type request struct {
	method    string
	authority string
	path      string // the full :path, query included
	pathOnly  string // path before the first '?' or '#'
	scheme    string // the :scheme pseudo-header
	headers   map[string][]string
}

// newRequest builds the router's view of req arriving on a listener whose
// scheme is scheme ("http" when empty). A missing method is GET and a missing
// path is "/", as a client sends them; an empty Authority falls back to a
// Host entry in Headers, as HTTP/1's Host becomes :authority. Header entries
// named like pseudo-headers or "host" are dropped: a client cannot send them
// as ordinary headers.
func newRequest(req Request, scheme string) *request {
	if scheme == "" {
		scheme = "http"
	}
	r := &request{
		method:    req.Method,
		authority: req.Authority,
		path:      req.Path,
		scheme:    scheme,
		headers:   make(map[string][]string, len(req.Headers)+5),
	}
	if r.method == "" {
		r.method = "GET"
	}
	if r.path == "" {
		r.path = "/"
	}
	names := make([]string, 0, len(req.Headers))
	for name := range req.Headers {
		names = append(names, name)
	}
	slices.Sort(names)
	var host []string
	for _, name := range names {
		lower := asciiLower(name)
		switch {
		case lower == "host":
			host = append(host, req.Headers[name]...)
		case strings.HasPrefix(lower, ":"):
		default:
			r.headers[lower] = append(r.headers[lower], req.Headers[name]...)
		}
	}
	if r.authority == "" && len(host) > 0 {
		r.authority = host[0]
	}
	r.pathOnly = removeQueryAndFragment(r.path)
	r.headers[":authority"] = []string{r.authority}
	r.headers[":method"] = []string{r.method}
	r.headers[":path"] = []string{r.path}
	// Sesame's connection managers use the remote address, with no trusted
	// hops: Envoy overwrites a client's x-forwarded-proto with the
	// connection's scheme, and an HTTP/1 request's :scheme follows it
	// (ConnectionManagerUtility::mutateRequestHeaders).
	r.headers[":scheme"] = []string{r.scheme}
	r.headers["x-forwarded-proto"] = []string{r.scheme}
	return r
}

// header returns the value of the named (lower-case) header: all of its
// values joined with ",", as Envoy's HeaderUtility::getAllOfHeaderAsString
// does before matching. ok is false when the header is absent.
func (r *request) header(name string) (value string, ok bool) {
	values := r.headers[name]
	switch len(values) {
	case 0:
		return "", false
	case 1:
		return values[0], true
	}
	return strings.Join(values, ","), true
}

// firstHeader returns the first value of the named (lower-case) header, which
// is all Envoy reads from headers it treats as single-valued (cluster_header,
// content-type, x-forwarded-proto).
func (r *request) firstHeader(name string) (value string, ok bool) {
	values := r.headers[name]
	if len(values) == 0 {
		return "", false
	}
	return values[0], true
}

// forwardedProto is x-forwarded-proto, which Envoy consults (rather than the
// connection) when it decides whether a request arrived over TLS.
func (r *request) forwardedProto() string {
	v, _ := r.firstHeader("x-forwarded-proto")
	return v
}

// queryParam returns the first value of the query parameter name, compared
// case-sensitively and not percent-decoded: "?q=a%20b" has q = "a%20b". A
// parameter without '=' has the empty value.
func (r *request) queryParam(name string) (value string, ok bool) {
	i := strings.IndexByte(r.path, '?')
	if i < 0 {
		return "", false
	}
	// Walk the parameters as Envoy's QueryParamsMulti::parseParameters does:
	// a trailing '&' ends the string without adding an empty parameter.
	rest := r.path[i+1:]
	for rest != "" {
		param, next, _ := strings.Cut(rest, "&")
		key, value, _ := strings.Cut(param, "=")
		if key == name {
			return value, true
		}
		rest = next
	}
	return "", false
}

// cookie returns the value of the first cookie called name across all Cookie
// headers, with one pair of surrounding double quotes removed.
func (r *request) cookie(name string) (value string, ok bool) {
	for _, header := range r.headers["cookie"] {
		for pair := range strings.SplitSeq(header, ";") {
			pair = strings.TrimLeft(pair, " ")
			key, value, found := strings.Cut(pair, "=")
			if !found || key != name {
				continue
			}
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = value[1 : len(value)-1]
			}
			return value, true
		}
	}
	return "", false
}

// removeQueryAndFragment is Envoy's PathUtil::removeQueryAndFragment: the
// path up to the first '?' or '#'.
func removeQueryAndFragment(path string) string {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		return path[:i]
	}
	return path
}
