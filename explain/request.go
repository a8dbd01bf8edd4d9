package explain

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Request is what a client sends: an HTTP request, a gRPC call (an HTTP/2
// POST with content-type application/grpc), or a TLS connection that sends
// nothing Envoy reads (TLS set, Method empty).
type Request struct {
	// Scheme is "http" or "https"; https connects with TLS.
	Scheme string `json:"scheme"`
	// Host is the host the client names: the :authority (with Port when it
	// is not the scheme's default, as clients send it) unless Headers has
	// a Host, and the TLS server name unless ServerName is set.
	Host string `json:"host"`
	// Port is the port the client connects to: a Gateway listener's port,
	// or 80 and 443 for the HTTPProxy and Ingress ports (which Envoy binds
	// as 8080 and 8443 by default, behind a Service that maps them).
	Port uint32 `json:"port"`
	// Method is the HTTP method; empty for a TLS connection alone.
	Method string `json:"method,omitempty"`
	// Path is the path and query, e.g. "/api/v1/items?x=1".
	Path string `json:"path,omitempty"`
	// Headers are the other headers, by name as sent.
	Headers map[string][]string `json:"headers,omitempty"`
	// ServerName is the TLS server name (SNI) when it is not Host.
	ServerName string `json:"serverName,omitempty"`
	// Gateway ("namespace/name") picks the Gateway whose Envoy receives
	// the request when several have a listener on Port.
	Gateway string `json:"gateway,omitempty"`
}

// ParseRequest reads an HTTP request line, "METHOD URL" or just "URL"
// (GET), such as "GET https://shop.example.com:8443/api?x=1", and headers
// written "Name: value" as curl's -H takes them. The URL must be absolute,
// http or https, with a host; the port defaults to the scheme's.
func ParseRequest(line string, headers []string) (Request, error) {
	fields := strings.Fields(line)
	method, target := "GET", ""
	switch len(fields) {
	case 1:
		target = fields[0]
	case 2:
		method, target = fields[0], fields[1]
	default:
		return Request{}, fmt.Errorf("request %q: want METHOD URL, e.g. \"GET https://shop.example.com/\"", line)
	}
	if !validToken(method) {
		return Request{}, fmt.Errorf("request %q: method %q is not an HTTP method", line, method)
	}
	req, err := parseTarget(target)
	if err != nil {
		return Request{}, err
	}
	req.Method = method
	if req.Headers, err = parseHeaders(headers); err != nil {
		return Request{}, err
	}
	return req, nil
}

// ParseGRPC reads a gRPC call: target is "[http://|https://]host[:port]"
// (http and port 80 when unsaid) and method is "package.Service/Method".
func ParseGRPC(target, method string, headers []string) (Request, error) {
	service, name, ok := strings.Cut(strings.TrimPrefix(method, "/"), "/")
	if !ok || service == "" || name == "" || strings.Contains(name, "/") {
		return Request{}, fmt.Errorf("gRPC method %q: want package.Service/Method", method)
	}
	if !strings.Contains(target, "://") {
		target = "http://" + target
	}
	req, err := parseTarget(target)
	if err != nil {
		return Request{}, err
	}
	if req.Path != "/" {
		return Request{}, fmt.Errorf("gRPC target %q: want host[:port] without a path", target)
	}
	req.Method, req.Path = "POST", "/"+service+"/"+name
	if req.Headers, err = parseHeaders(headers); err != nil {
		return Request{}, err
	}
	if req.Headers == nil {
		req.Headers = map[string][]string{}
	}
	req.Headers["content-type"] = []string{"application/grpc"}
	req.Headers["te"] = []string{"trailers"}
	return req, nil
}

// TLSConnection is a TLS connection to port with server name sni that
// sends nothing Envoy reads: what a TLSRoute forwards.
func TLSConnection(sni string, port int) (Request, error) {
	if err := checkPort(port); err != nil {
		return Request{}, err
	}
	if sni == "" || strings.ContainsAny(sni, "/: ") {
		return Request{}, fmt.Errorf("server name %q: want a DNS name", sni)
	}
	return Request{Scheme: "https", Host: strings.ToLower(sni), Port: uint32(port)}, nil
}

// parseTarget reads an absolute http or https URL.
func parseTarget(target string) (Request, error) {
	u, err := url.Parse(target)
	if err != nil {
		return Request{}, fmt.Errorf("URL %q: %w", target, errors.Unwrap(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Request{}, fmt.Errorf("URL %q: want an http:// or https:// URL", target)
	}
	host := u.Hostname()
	if host == "" {
		return Request{}, fmt.Errorf("URL %q has no host", target)
	}
	port := 80
	if u.Scheme == "https" {
		port = 443
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			port = -1 // digits only (url.Parse checked), so too many of them
		}
	}
	if err := checkPort(port); err != nil {
		return Request{}, fmt.Errorf("URL %q: %w", target, err)
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		path += "?" + u.RawQuery
	}
	return Request{Scheme: u.Scheme, Host: strings.ToLower(host), Port: uint32(port), Path: path}, nil
}

func checkPort(port int) error {
	if port < 1 || port > 65535 {
		if port < 0 {
			return errors.New("the port is out of range (1-65535)")
		}
		return fmt.Errorf("port %d is out of range (1-65535)", port)
	}
	return nil
}

// parseHeaders reads "Name: value" lines into a header map.
func parseHeaders(lines []string) (map[string][]string, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	out := map[string][]string{}
	for _, line := range lines {
		name, value, ok := strings.Cut(line, ":")
		if !ok || !validToken(name) {
			return nil, fmt.Errorf("header %q: want \"Name: value\"", line)
		}
		out[name] = append(out[name], strings.TrimSpace(value))
	}
	return out, nil
}

// validToken reports whether s is an HTTP token (RFC 9110, section 5.6.2):
// what a method and a header name are made of.
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// authority is the :authority the client sends: a Host header when given,
// else Host with the port unless it is the scheme's default.
func (r Request) authority() string {
	for name, values := range r.Headers {
		if strings.EqualFold(name, "host") && len(values) > 0 {
			return values[0]
		}
	}
	if (r.Scheme == "https" && r.Port == 443) || (r.Scheme != "https" && r.Port == 80) {
		return r.Host
	}
	return net.JoinHostPort(r.Host, strconv.FormatUint(uint64(r.Port), 10))
}

// serverName is the TLS server name the client sends; "" without TLS.
func (r Request) serverName() string {
	switch {
	case r.Scheme != "https":
		return ""
	case r.ServerName != "":
		return r.ServerName
	}
	return r.Host
}

// String is the request as a line: "GET https://shop.example.com/api",
// with the headers after it, or "TLS shop.example.com:443".
func (r Request) String() string {
	if r.Method == "" {
		return "TLS " + net.JoinHostPort(r.serverName(), strconv.FormatUint(uint64(r.Port), 10))
	}
	var b strings.Builder
	b.WriteString(r.Method + " " + r.Scheme + "://" + r.Host)
	if !((r.Scheme == "https" && r.Port == 443) || (r.Scheme != "https" && r.Port == 80)) {
		b.WriteString(":" + strconv.FormatUint(uint64(r.Port), 10))
	}
	b.WriteString(r.Path)
	names := make([]string, 0, len(r.Headers))
	for name := range r.Headers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range r.Headers[name] {
			b.WriteString(" -H '" + name + ": " + v + "'")
		}
	}
	if r.ServerName != "" {
		b.WriteString(" --sni " + r.ServerName)
	}
	return b.String()
}
