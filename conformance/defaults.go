package conformance

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// crds are the Gateway API CustomResourceDefinitions, and the structural
// schema of each served version, with which the API server fills in the
// defaults of what a client writes (a parentRef's group and kind, a
// backendRef's weight, a route's default path match). Sesame reads objects
// as the API server stores them, so the harness defaults them too.
type crds struct {
	defs    []*apiextensionsv1.CustomResourceDefinition
	schemas map[schema.GroupVersionKind]*structuralschema.Structural
}

// loadCRDs reads the CRDs of the experimental channel (a superset of the
// standard one) from dir, the gateway-api module's config/crd/experimental.
func loadCRDs(dir string) (*crds, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	out := &crds{schemas: map[schema.GroupVersionKind]*structuralschema.Structural{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if !strings.Contains(string(doc), "kind: CustomResourceDefinition") {
				continue
			}
			crd := &apiextensionsv1.CustomResourceDefinition{}
			if err := yaml.Unmarshal(doc, crd); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			if err := out.add(crd); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
		}
	}
	if len(out.defs) == 0 {
		return nil, fmt.Errorf("no CustomResourceDefinitions in %s", dir)
	}
	return out, nil
}

func (c *crds) add(crd *apiextensionsv1.CustomResourceDefinition) error {
	c.defs = append(c.defs, crd)
	for _, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		internal := &apiextensions.JSONSchemaProps{}
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
			return err
		}
		s, err := structuralschema.NewStructural(internal)
		if err != nil {
			return err
		}
		c.schemas[schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}] = s
	}
	return nil
}

// apply fills in the CRD defaults of obj, of kind gvk, in place; objects
// of other kinds are left alone.
func (c *crds) apply(gvk schema.GroupVersionKind, obj runtime.Object) error {
	s, ok := c.schemas[gvk]
	if !ok {
		return nil
	}
	if u, ok := obj.(runtime.Unstructured); ok {
		content := u.UnstructuredContent()
		defaulting.Default(content, s)
		u.SetUnstructuredContent(content)
		return nil
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return err
	}
	defaulting.Default(content, s)
	return runtime.DefaultUnstructuredConverter.FromUnstructured(content, obj)
}
