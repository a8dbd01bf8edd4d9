package httpproxy

import (
	"testing"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
)

func TestProxyClass(t *testing.T) {
	proxy := func(contour, k8s, spec string) *contourv1.HTTPProxy {
		p := &contourv1.HTTPProxy{}
		p.Annotations = map[string]string{}
		if contour != "" {
			p.Annotations[contourClassAnnotation] = contour
		}
		if k8s != "" {
			p.Annotations[kubernetesClassAnnotation] = k8s
		}
		p.Spec.IngressClassName = spec
		return p
	}
	for _, tt := range []struct {
		contour, k8s, spec string
		Class              string
		Served             bool // with the default class, "sesame"
	}{
		{"", "", "", "", true},
		{"", "", "sesame", "sesame", true},
		{"", "", "contour", "contour", false},
		{"", "sesame", "contour", "sesame", true},   // an annotation wins over the spec
		{"contour", "sesame", "", "contour", false}, // Contour's annotation wins over the other
		{"sesame", "contour", "contour", "sesame", true},
	} {
		p := proxy(tt.contour, tt.k8s, tt.spec)
		if got := proxyClass(p); got != tt.Class {
			t.Errorf("proxyClass(%q, %q, %q) = %q, want %q", tt.contour, tt.k8s, tt.spec, got, tt.Class)
		}
		if got := (Options{Class: "sesame"}).serves(proxyClass(p)); got != tt.Served {
			t.Errorf("serves(%q) = %v, want %v", proxyClass(p), got, tt.Served)
		}
	}
	if !(Options{Class: "contour"}).serves("contour") || (Options{Class: "contour"}).serves("sesame") {
		t.Error("Options.IngressClass does not choose the class served")
	}
}
