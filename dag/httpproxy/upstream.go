// Upstream certificate validation of HTTPProxy services: package contour
// reads it (internal/contour/upstream.go says how); equal validations
// share one UpstreamTLS, so that services with the same validation share a
// cluster, named "validation/<CA Secret>/<subject name>", with a hash when
// more names or an SNI tell it apart.

package httpproxy

import (
	"fmt"
	"hash/fnv"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
)

// upstreamValidation reads the validation of a service of a proxy in
// namespace, whose cluster speaks protocol, sending sni.
func (pb *Result) upstreamValidation(namespace string, v *contourv1.UpstreamValidation, protocol, sni string) (*graph.UpstreamTLS, string) {
	tls, key, name, problem := contour.UpstreamValidation(pb.index, namespace, v, protocol, sni)
	if problem != "" {
		return nil, problem
	}
	if shared, ok := pb.upstreamTLS[key]; ok {
		return shared, ""
	}
	tls.Origin = "validation/" + name + "/" + tls.SubjectAltNames[0].Value
	if len(tls.SubjectAltNames) > 1 || sni != "" {
		h := fnv.New32a()
		h.Write([]byte(key))
		tls.Origin += fmt.Sprintf("/%08x", h.Sum32())
	}
	if pb.upstreamTLS == nil {
		pb.upstreamTLS = map[string]*graph.UpstreamTLS{}
	}
	pb.upstreamTLS[key] = tls
	return tls, ""
}
