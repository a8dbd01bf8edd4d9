package sesame_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
)

// TestDecoderAPI uses the decoder as an importer does, from outside the
// module's packages: the aliases' fields and methods, the error types
// through errors.As, and the kinds list.
func TestDecoderAPI(t *testing.T) {
	const in = `
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {ports: [{port: 80}], colour: blue}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: other}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public}
spec: {listeners: [{name: http, port: eighty}]}
---
apiVersion: v1
kind: Service
metadata: {name: web}
`
	// Namespace and Strict: the Service that names no namespace is in
	// "team", and its unknown field skips it; the Gateway's wrong type is
	// an error either way.
	d := &sesame.Decoder{Namespace: "team", Strict: true}
	objects, warnings, err := d.Decode("in.yaml", strings.NewReader(in))
	if len(warnings) != 0 {
		t.Errorf("warnings %v; want none", warnings)
	}
	var errs sesame.DecodeErrors
	if !errors.As(err, &errs) || len(errs) != 2 {
		t.Fatalf("error %v; want DecodeErrors of 2", err)
	}
	if e := errs[0]; e.Document != 1 || e.Object != "Service team/web" || e.Path != "spec.colour" {
		t.Errorf("errs[0] = %+v; want document 1, Service team/web, spec.colour", e)
	}
	var de *sesame.DecodeError
	if !errors.As(err, &de) || de.Source != "in.yaml" {
		t.Errorf("errors.As(*DecodeError) gives %v", de)
	}
	if e := errs[1]; e.Document != 3 || e.Path != "spec.listeners[0].port" {
		t.Errorf("errs[1] = %+v; want document 3, spec.listeners[0].port", e)
	}
	if got := names(objects); !slices.Equal(got, []string{"other/web", "team/web"}) {
		t.Errorf("objects %v; want other/web, team/web", got)
	}
	// Dedupe, over every stream the Decoder read: the later stream's copy
	// of other/web replaces the first's.
	more, _, err := d.Decode("more.yaml", strings.NewReader("apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: other}\n"))
	if err != nil {
		t.Fatal(err)
	}
	kept, dropped := d.Dedupe(append(objects, more...))
	if len(kept) != 2 || len(dropped) != 1 || dropped[0].Source != "more.yaml" ||
		!strings.Contains(dropped[0].String(), "is also in in.yaml document 2") {
		t.Errorf("Dedupe kept %v, dropped %v; want 2 kept and other/web of in.yaml dropped", names(kept), dropped)
	}

	// Limits, with the LimitError as the cause.
	d = &sesame.Decoder{Limits: sesame.DecodeLimits{Objects: 1}}
	_, _, err = d.Decode("in.yaml", strings.NewReader(in))
	var le *sesame.DecodeLimitError
	if !errors.As(err, &le) || le.Limit != "Objects" || le.Max != 1 {
		t.Errorf("error %v; want a DecodeLimitError on Objects", err)
	}

	// Decode: the zero Decoder, then Dedupe.
	objects, warnings, err = sesame.Decode("in.yaml", strings.NewReader(in))
	if err == nil || len(objects) != 2 || len(warnings) != 2 {
		t.Errorf("Decode: objects %v, warnings %v, error %v; want 2 objects (default/web and other/web), 2 warnings (unknown field, copy), an error", names(objects), warnings, err)
	}

	kinds := sesame.DecodeKinds()
	for _, want := range []schema.GroupVersionKind{
		gatewayv1.SchemeGroupVersion.WithKind("Gateway"),
		{Group: gatewayv1.GroupName, Version: "v1beta1", Kind: "HTTPRoute"},
		corev1.SchemeGroupVersion.WithKind("Service"),
	} {
		if !slices.Contains(kinds, want) {
			t.Errorf("DecodeKinds() lacks %v", want)
		}
	}
}

// names lists objects by namespace/name.
func names(objects []runtime.Object) []string {
	var out []string
	for _, obj := range objects {
		m, err := meta.Accessor(obj)
		if err != nil {
			out = append(out, fmt.Sprintf("%T", obj))
			continue
		}
		out = append(out, m.GetNamespace()+"/"+m.GetName())
	}
	return out
}
