package explain

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRequest(t *testing.T) {
	tests := []struct {
		line    string
		headers []string
		want    Request
		err     string
	}{
		{line: "GET https://shop.example.com/api?x=1", want: Request{Scheme: "https", Host: "shop.example.com", Port: 443, Method: "GET", Path: "/api?x=1"}},
		{line: "https://Shop.Example.com:8443", want: Request{Scheme: "https", Host: "shop.example.com", Port: 8443, Method: "GET", Path: "/"}},
		{line: "POST http://a.b/c%20d?", want: Request{Scheme: "http", Host: "a.b", Port: 80, Method: "POST", Path: "/c%20d?"}},
		{line: "  DELETE   http://[::1]:81/x  ", want: Request{Scheme: "http", Host: "::1", Port: 81, Method: "DELETE", Path: "/x"}},
		{line: "GET http://h/", headers: []string{"X-A: 1", "x-a:2", "Host: other:8080"},
			want: Request{Scheme: "http", Host: "h", Port: 80, Method: "GET", Path: "/", Headers: map[string][]string{"X-A": {"1"}, "x-a": {"2"}, "Host": {"other:8080"}}}},
		{line: "", err: "want METHOD URL"},
		{line: "GET http://h/ extra", err: "want METHOD URL"},
		{line: "G(T http://h/", err: "is not an HTTP method"},
		{line: "GET h/", err: "want an http:// or https:// URL"},
		{line: "GET ftp://h/", err: "want an http:// or https:// URL"},
		{line: "GET http:///x", err: "has no host"},
		{line: "GET http://h:0/", err: "out of range"},
		{line: "GET http://h:65536/", err: "out of range"},
		{line: "GET http://h:99999999999999999999/", err: "out of range"},
		{line: "GET http://h/%zz", err: "URL"},
		{line: "GET http://h/", headers: []string{"no colon"}, err: "want \"Name: value\""},
		{line: "GET http://h/", headers: []string{": empty name"}, err: "want \"Name: value\""},
	}
	for _, tt := range tests {
		got, err := ParseRequest(tt.line, tt.headers)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseRequest(%q) error = %v, want one with %q", tt.line, err, tt.err)
			}
		case err != nil:
			t.Errorf("ParseRequest(%q): %v", tt.line, err)
		default:
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseRequest(%q) (-want +got):\n%s", tt.line, diff)
			}
		}
	}
}

func TestParseGRPCAndTLS(t *testing.T) {
	got, err := ParseGRPC("grpc.example.com:50051", "pkg.Svc/Call", []string{"x-env: canary"})
	want := Request{Scheme: "http", Host: "grpc.example.com", Port: 50051, Method: "POST", Path: "/pkg.Svc/Call",
		Headers: map[string][]string{"content-type": {"application/grpc"}, "te": {"trailers"}, "x-env": {"canary"}}}
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("ParseGRPC = %+v, %v; want %+v", got, err, want)
	}
	if got, err := ParseGRPC("https://g", "/pkg.Svc/Call", nil); err != nil || got.Port != 443 || got.Scheme != "https" {
		t.Errorf("ParseGRPC https = %+v, %v", got, err)
	}
	for _, bad := range [][2]string{{"g", "Svc"}, {"g", "a/b/c"}, {"g", "/Call"}, {"g/x", "a/b"}, {"ftp://g", "a/b"}} {
		if _, err := ParseGRPC(bad[0], bad[1], nil); err == nil {
			t.Errorf("ParseGRPC(%q, %q): no error", bad[0], bad[1])
		}
	}
	if got, err := TLSConnection("DB.example.com", 5432); err != nil || !cmp.Equal(got, Request{Scheme: "https", Host: "db.example.com", Port: 5432}) {
		t.Errorf("TLSConnection = %+v, %v", got, err)
	}
	for _, bad := range []struct {
		sni  string
		port int
	}{{"", 443}, {"a b", 443}, {"h", 0}, {"h", 70000}} {
		if _, err := TLSConnection(bad.sni, bad.port); err == nil {
			t.Errorf("TLSConnection(%q, %d): no error", bad.sni, bad.port)
		}
	}
}

func TestAuthorityAndString(t *testing.T) {
	tests := []struct {
		req             Request
		authority, line string
	}{
		{Request{Scheme: "https", Host: "h", Port: 443, Method: "GET", Path: "/"}, "h", "GET https://h/"},
		{Request{Scheme: "http", Host: "h", Port: 8080, Method: "GET", Path: "/a"}, "h:8080", "GET http://h:8080/a"},
		{Request{Scheme: "http", Host: "::1", Port: 81, Method: "GET", Path: "/"}, "[::1]:81", "GET http://::1:81/"},
		{Request{Scheme: "http", Host: "h", Port: 80, Method: "GET", Path: "/", Headers: map[string][]string{"host": {"x"}, "b": {"1", "2"}}},
			"x", "GET http://h/ -H 'b: 1' -H 'b: 2' -H 'host: x'"},
		{Request{Scheme: "https", Host: "h", Port: 443, ServerName: "s"}, "h", "TLS s:443"},
	}
	for _, tt := range tests {
		if got := tt.req.authority(); got != tt.authority {
			t.Errorf("%+v: authority %q, want %q", tt.req, got, tt.authority)
		}
		if got := tt.req.String(); got != tt.line {
			t.Errorf("%+v: String %q, want %q", tt.req, got, tt.line)
		}
	}
}

// FuzzParseRequest: no line or header panics the parser, and what it
// accepts is a request Explain can walk.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{"GET https://shop.example.com/api?x=1", "https://h:1", "POST http://[::1]:81/x", "GET http://h:65536/", "X http://%zz"} {
		f.Add(s, "x-a: 1")
	}
	f.Fuzz(func(t *testing.T, line, header string) {
		req, err := ParseRequest(line, []string{header})
		if err != nil {
			return
		}
		if req.Host == "" || req.Port == 0 || (req.Scheme != "http" && req.Scheme != "https") || !validToken(req.Method) || !strings.HasPrefix(req.Path, "/") {
			t.Fatalf("ParseRequest(%q) accepted %+v", line, req)
		}
		if _, err := Explain(Input{}, req); err != nil {
			t.Fatalf("Explain of no configuration: %v", err)
		}
	})
}
