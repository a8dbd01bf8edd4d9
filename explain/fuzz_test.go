package explain_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/explain"
)

// FuzzExplain sends any request to the shipped examples' configurations:
// Explain never panics, says the same twice, and what it says is
// consistent (a forwarded request has backends, an answered one a status)
// and encodes as JSON.
func FuzzExplain(f *testing.F) {
	files, err := filepath.Glob("../testdata/examples/*.yaml")
	if err != nil || len(files) == 0 {
		f.Fatalf("no examples: %v", err)
	}
	var results []*sesame.Result
	for _, file := range files {
		r, err := os.Open(file)
		if err != nil {
			f.Fatal(err)
		}
		objects, _, err := sesame.Decode(file, r)
		r.Close()
		if err != nil {
			f.Fatal(err)
		}
		res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), AllGateways: true})
		if err != nil {
			f.Fatal(err)
		}
		results = append(results, res)
	}
	f.Add(uint8(0), "GET https://shop.example.com/api/v1?x=1", "x-canary: true", "")
	f.Add(uint8(1), "POST http://grpc.example.com/grpc.testing.TestService/UnaryCall", "content-type: application/grpc", "")
	f.Add(uint8(2), "GET http://example.com/foo/bar", "x-header: a", "")
	f.Add(uint8(3), "GET https://www.example.com:8443/", "Host: a.example.com", "www.example.com")
	f.Fuzz(func(t *testing.T, which uint8, line, header, sni string) {
		res := results[int(which)%len(results)]
		req, err := explain.ParseRequest(line, []string{header})
		if err != nil {
			return
		}
		req.ServerName = sni
		e, err := res.Explain(req)
		if err != nil {
			return // a port several Gateways listen on
		}
		again, _ := res.Explain(req)
		if diff := cmp.Diff(e, again); diff != "" {
			t.Fatalf("two explanations differ:\n%s", diff)
		}
		switch e.Outcome {
		case explain.Forwarded:
			if e.Action == nil || len(e.Action.Backends) == 0 || e.Status != 0 {
				t.Fatalf("forwarded without backends: %+v", e)
			}
		case explain.Answered:
			if e.Status == 0 {
				t.Fatalf("answered without a status: %+v", e)
			}
		case explain.Refused, explain.Terminated:
		default:
			t.Fatalf("outcome %q", e.Outcome)
		}
		if e.Reason == "" {
			t.Fatalf("no reason: %+v", e)
		}
		if _, err := json.Marshal(e); err != nil {
			t.Fatal(err)
		}
	})
}
