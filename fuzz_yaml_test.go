package sesame_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/internal/manifest"
)

// FuzzPipelineYAML edits a small manifest of every kind as its input
// directs, then decodes the result and translates what it could decode, as
// sesame translate does. The limits are small, so that Lists are read item
// by item and values refused.
//
// The input is a few bytes of edits (delete, duplicate, swap or re-indent a
// line, replace a value with a hostile one, insert bytes or a separator),
// not the YAML itself: Go's fuzzing engine minimizes every input that finds
// new coverage, trying about n² shorter versions of an input of n bytes,
// and with a manifest of a kilobyte at a millisecond an execution it spent
// its whole time minimizing (8 executions in 20 s). Raw bytes reach the
// decoder in internal/manifest's FuzzDecode, and whole manifests in
// FuzzTranslate.
func FuzzPipelineYAML(f *testing.F) {
	for _, seed := range []string{"", "\x01", "\x02", "\x03", "\x00\x02\x09\x00", "\x01\x02\x07\x01\x05\x04\x03", "\x00\x00\x03\x05\xf0\x04abcd"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, edits []byte) {
		d := &manifest.Decoder{Limits: manifest.Limits{DocumentBytes: 1024, ValueBytes: 256, Objects: 16}}
		objects, _, err := d.Decode("fuzz", strings.NewReader(editManifest(edits)))
		if err != nil && !errors.As(err, new(manifest.Errors)) {
			t.Fatalf("Decode: %T %v", err, err)
		}
		checkPipeline(t, objects)
	})
}

// manifests are the starting points of FuzzPipelineYAML: pipelineYAML, as
// documents, as a List (larger than the limit: read item by item), and as
// JSON, one document each and as one indented List.
var manifests = func() []string {
	docs := strings.Split(pipelineYAML, "---\n")
	list := "apiVersion: v1\nkind: List\nitems:\n"
	var asJSON []string
	var items []json.RawMessage
	for _, doc := range docs {
		list += "- " + strings.ReplaceAll(strings.TrimSuffix(doc, "\n"), "\n", "\n  ") + "\n"
		data, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			panic(err)
		}
		asJSON = append(asJSON, string(data))
		items = append(items, data)
	}
	jsonList, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", "  ")
	if err != nil {
		panic(err)
	}
	return []string{pipelineYAML, list, strings.Join(asJSON, "\n---\n"), string(jsonList)}
}()

// hostileValues replace values of the manifest.
var hostileValues = []string{
	`"eighty"`, "80", "-1", "0", "99999999999", "1.5", "[]", "{}", "null", "~", `""`, "yes",
	`"*.example.com"`, "a.example.com", "/", `"(["`, `"\u00e9\u0000"`, `"a\r\nb"`, "!!binary aGk=", "&x v", "*x",
	"|\n  block", ">-", strings.Repeat("a", 300), "{name: svc, port: 80}", "[{name: l, port: 80, protocol: HTTP}]",
	"gateway.networking.k8s.io/v1", "a/b/c", "List", "HTTPRoute", "RegularExpression",
}

// editManifest applies the edits to one of the manifests: the first byte
// chooses it, then each edit is an operation, a line and an argument.
func editManifest(edits []byte) string {
	in := &fuzzBytes{b: edits}
	lines := strings.SplitAfter(manifests[in.n(len(manifests))], "\n")
	for len(in.b) > 0 && len(lines) > 0 {
		op, k := in.n(8), in.n(len(lines))
		line := lines[k]
		switch op {
		case 0: // delete the line
			lines = append(lines[:k], lines[k+1:]...)
		case 1: // duplicate it
			lines = append(lines[:k+1], lines[k:]...)
		case 2: // swap it with the next
			if k+1 < len(lines) {
				lines[k], lines[k+1] = lines[k+1], lines[k]
			}
		case 3: // indent it by two spaces more, or less
			if in.n(2) == 0 {
				lines[k] = "  " + line
			} else {
				lines[k] = strings.TrimPrefix(line, "  ")
			}
		case 4, 5: // replace its value
			value := in.pick(hostileValues...)
			if i := strings.Index(line, ": "); i >= 0 {
				lines[k] = line[:i+2] + value + "\n"
			} else if i := strings.Index(line, "- "); i >= 0 {
				lines[k] = line[:i+2] + value + "\n"
			}
		case 6: // insert bytes of the input
			lines[k] = in.pick("\t", "#", ":", "- ", "{", "]", "'", "\"", "\r", "\x00", "\xff") + line
		default: // insert a document separator
			lines = append(lines[:k], append([]string{in.pick("---\n", "--- x\n", "...\n")}, lines[k:]...)...)
		}
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.String()
}

// pipelineYAML is a small manifest of every kind.
const pipelineYAML = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: c}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: ns}
spec: {gatewayClassName: c, listeners: [{name: http, protocol: HTTP, port: 80, hostname: "*.example.com"}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: ns}
spec:
  parentRefs: [{name: gw}]
  hostnames: [a.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /app}, headers: [{name: x, type: RegularExpression, value: "a+"}]}]
    backendRefs: [{name: svc, port: 80, weight: 2}]
---
apiVersion: projectcontour.io/v1
kind: HTTPProxy
metadata: {name: p, namespace: ns}
spec: {virtualhost: {fqdn: b.example.com}, routes: [{conditions: [{prefix: /b}], services: [{name: svc, port: 80}]}]}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: i, namespace: ns}
spec: {rules: [{host: c.example.com, http: {paths: [{path: /c, pathType: Prefix, backend: {service: {name: svc, port: {number: 80}}}}]}}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: ns}
spec: {ports: [{port: 80}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: svc-1, namespace: ns, labels: {kubernetes.io/service-name: svc}}
addressType: IPv4
endpoints: [{addresses: [10.0.0.1]}]
ports: [{port: 8080}]
`
