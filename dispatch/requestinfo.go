// Reading the Attributes of an HTTP request, by the rules Kubernetes' API
// server uses for its request info (and so for RBAC).
//
// The path is trimmed of every leading and trailing "/" and split at each
// remaining "/", so "//api/v1/pods/" is api, v1, pods and "/api/v1//pods"
// has an empty segment. A path is a resource request if it starts with an
// API prefix and is long enough to name a resource:
//
//	/<groupless prefix>/<version>/<rest>          "/api/v1/pods": group ""
//	/<prefix>/<group>/<version>/<rest>            "/apis/apps/v1/deployments"
//
// Everything else ("/healthz", "/api", "/apis/apps/v1", "/version") is a
// non-resource request: only Path and Verb, the lower-case HTTP method, are
// set. In <rest>, a first segment "watch" or "proxy" is the verb (the
// legacy "/api/v1/watch/pods"); otherwise the method gives it. Then
// "namespaces/<ns>" is taken off unless what follows is a subresource of
// the namespace itself (status, finalize), and what is left is
// <resource>/<name>/<subresource>, ignoring anything further. Last, a get
// without a name is a list, or a watch if the query says watch=true (any
// value but "false" and "0"), and a list or watch whose fieldSelector
// requires metadata.name=<name> has that name (listoptions.go); a delete
// without a name is a deletecollection.
//
// Worked example, a GET of /api/v1/namespaces/default/pods?watch=1&
// fieldSelector=metadata.name%3Dweb:
//
//	segments   api v1 namespaces default pods
//	prefix     api (groupless): group "", version v1
//	rest       namespaces default pods: namespace default, resource pods
//	verb       GET, no name: get, then list; watch=1: watch
//	name       fieldSelector metadata.name=web: web
//
// giving {Verb: watch, Namespace: default, Resource: pods, Name: web,
// IsResourceRequest: true}. The same GET of /api/v1/namespaces/default
// (the namespace itself) is {Verb: get, Namespace: default, Resource:
// namespaces, Name: default}; of /api/v1/namespaces/default/status,
// Subresource is status.

package dispatch

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// RequestParser reads the Attributes of HTTP requests to a Kubernetes API
// server, following the request-info rules of k8s.io/apiserver (the file
// comment says how, and package dispatch's comment lists what it leaves
// out). It is configured with the server's API prefixes; the zero value has
// none, so that every request is a non-resource request. A RequestParser is
// immutable and safe for concurrent use.
type RequestParser struct {
	prefixes []apiPrefix
}

// apiPrefix is the first path segment of resource requests; groupless
// prefixes ("api") are followed by the version, the others ("apis") by the
// group and the version.
type apiPrefix struct {
	name      string
	groupless bool
}

// NewRequestParser returns a RequestParser for resource paths that start
// with one of apiPrefixes, such as "apis"; those also in grouplessPrefixes,
// such as "api", have no group segment. Prefixes are single path segments,
// without slashes. NewRequestParser panics if a prefix is empty or contains
// a "/", or if a groupless prefix is not among apiPrefixes: these are
// programming errors.
func NewRequestParser(apiPrefixes, grouplessPrefixes []string) *RequestParser {
	p := &RequestParser{}
	for _, s := range apiPrefixes {
		if s == "" || strings.Contains(s, "/") {
			panic(fmt.Sprintf("dispatch: NewRequestParser: API prefix %q is not a single path segment", s))
		}
		if !slices.ContainsFunc(p.prefixes, func(x apiPrefix) bool { return x.name == s }) {
			p.prefixes = append(p.prefixes, apiPrefix{name: s, groupless: slices.Contains(grouplessPrefixes, s)})
		}
	}
	for _, s := range grouplessPrefixes {
		if !slices.Contains(apiPrefixes, s) {
			panic(fmt.Sprintf("dispatch: NewRequestParser: groupless prefix %q is not among the API prefixes %q", s, apiPrefixes))
		}
	}
	return p
}

// kubernetes is the parser for Kubernetes' own prefixes: /api for the core
// group, /apis for the others.
var kubernetes = NewRequestParser([]string{"api", "apis"}, []string{"api"})

// AttributesFromRequest returns the Attributes of r, made by user in
// groups, read with Kubernetes' API prefixes: "/api/<version>/..." for the
// core group and "/apis/<group>/<version>/..." for the others. It is
// NewRequestParser([]string{"api", "apis"}, []string{"api"}).Attributes.
func AttributesFromRequest(r *http.Request, user string, groups []string) Attributes {
	return kubernetes.Attributes(r, user, groups)
}

// maxSegments is how many path segments Attributes looks at. The most a
// decision needs is nine: prefix, group, version, verb, "namespaces", the
// namespace, resource, name and subresource. Counting stops at the tenth,
// so that the length checks below hold for longer paths too.
const maxSegments = 10

// Attributes returns the Attributes of r, made by user in groups (kept, not
// copied). Path is r.URL.Path for both kinds of request, as in Kubernetes'
// authorizer attributes; Match only consults it for non-resource requests.
//
// The strings returned are substrings of r.URL.Path or constants, so
// Attributes does not allocate, except for the query of a get without a
// name: reading a percent-encoded query key or value, or a fieldSelector
// with backslash escapes, allocates, and so does checking the other list
// options when a fieldSelector names an object (see listoptions.go).
//
// A path that the API server rejects as malformed, a special verb with
// nothing after it ("/api/v1/watch"), yields what the API server knew when
// it gave up: a resource request with the group and the lower-case HTTP
// method as verb, and no resource.
func (p *RequestParser) Attributes(r *http.Request, user string, groups []string) Attributes {
	a := Attributes{Path: r.URL.Path, Verb: methodVerb(r.Method), User: user, Groups: groups}

	var seg [maxSegments]string
	n := splitPath(r.URL.Path, &seg)
	if n < 3 {
		return a
	}
	groupless, ok := p.prefix(seg[0])
	if !ok {
		return a
	}
	i := 1 // the next segment to read
	if !groupless {
		if n < 4 {
			return a
		}
		a.APIGroup = seg[1]
		i = 2
	}
	a.IsResourceRequest = true
	i++ // the version, which Attributes does not keep

	switch seg[i] {
	case "watch", "proxy":
		if n-i < 2 {
			return a
		}
		a.Verb = seg[i]
		i++
	default:
		a.Verb = resourceVerb(r.Method)
	}

	if seg[i] == "namespaces" && n-i > 1 {
		a.Namespace = seg[i+1]
		if n-i > 2 && seg[i+2] != "status" && seg[i+2] != "finalize" {
			i += 2
		}
	}
	parts := seg[i:n] // never empty: each step above left a segment
	a.Resource = parts[0]
	if len(parts) >= 2 {
		a.Name = parts[1]
	}
	if len(parts) >= 3 && a.Verb != "proxy" {
		a.Subresource = parts[2]
	}

	if a.Name == "" && a.Verb == "get" {
		a.Verb, a.Name = listVerb(r.URL.RawQuery)
	}
	if a.Name == "" && a.Verb == "delete" {
		a.Verb = "deletecollection"
	}
	return a
}

// prefix reports whether s is one of p's API prefixes, and if it is
// groupless.
func (p *RequestParser) prefix(s string) (groupless, ok bool) {
	for _, x := range p.prefixes {
		if x.name == s {
			return x.groupless, true
		}
	}
	return false, false
}

// splitPath stores the segments of path in seg and returns how many there
// are, or len(seg) if there are more. Leading and trailing slashes are
// dropped, all of them; a path of slashes has no segments.
func splitPath(path string, seg *[maxSegments]string) int {
	path = strings.Trim(path, "/")
	if path == "" {
		return 0
	}
	n := 0
	for n < len(seg) {
		s, rest, more := strings.Cut(path, "/")
		seg[n] = s
		n++
		if !more {
			break
		}
		path = rest
	}
	return n
}

// resourceVerb is the verb of a resource request made with method, before
// the name and query are known. Methods are matched exactly, as net/http
// spells them; any other method ("get", "OPTIONS") has no verb.
func resourceVerb(method string) string {
	switch method {
	case http.MethodPost:
		return "create"
	case http.MethodGet, http.MethodHead:
		return "get"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		return "delete"
	}
	return ""
}

// methodVerb is the verb of a non-resource request: the method in lower
// case. The usual methods are constants so that they do not allocate.
func methodVerb(method string) string {
	switch method {
	case http.MethodGet:
		return "get"
	case http.MethodHead:
		return "head"
	case http.MethodPost:
		return "post"
	case http.MethodPut:
		return "put"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		return "delete"
	case http.MethodOptions:
		return "options"
	case http.MethodConnect:
		return "connect"
	case http.MethodTrace:
		return "trace"
	}
	return strings.ToLower(method)
}
