// The Services and EndpointSlices the generated routes send traffic to.

package gen

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// targetPorts are the container ports Services forward to.
var targetPorts = []int32{8080, 3000, 8000, 9000}

// service appends a Service with one port named "http" and its EndpointSlice,
// created a few seconds after it, with one to five ready endpoints.
func (g *generator) service(ns, name string, port int32, created time.Time) {
	target := targetPorts[g.rng.IntN(len(targetPorts))]
	labels := map[string]string{"app.kubernetes.io/name": name}
	g.out = append(g.out, &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: metav1.NewTime(created), Labels: labels},
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeClusterIP,
			Selector: labels,
			Ports: []corev1.ServicePort{{
				Name: ServicePortName, Protocol: corev1.ProtocolTCP, Port: port, TargetPort: intstr.FromInt32(target),
			}},
		},
	})
	slice := &discoveryv1.EndpointSlice{
		TypeMeta: metav1.TypeMeta{APIVersion: discoveryv1.SchemeGroupVersion.String(), Kind: "EndpointSlice"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name + "-" + g.suffix(), CreationTimestamp: metav1.NewTime(created.Add(time.Duration(1+g.rng.IntN(30)) * time.Second)),
			Labels: map[string]string{discoveryv1.LabelServiceName: name, discoveryv1.LabelManagedBy: "endpointslice-controller.k8s.io"},
		},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: new(ServicePortName), Protocol: new(corev1.ProtocolTCP), Port: new(target)}},
	}
	for range 1 + g.rng.IntN(5) {
		slice.Endpoints = append(slice.Endpoints, discoveryv1.Endpoint{
			Addresses:  []string{g.nextAddress()},
			Conditions: discoveryv1.EndpointConditions{Ready: new(true), Serving: new(true), Terminating: new(false)},
			NodeName:   new(fmt.Sprintf("node-%d", g.rng.IntN(50))),
		})
	}
	g.out = append(g.out, slice)
}

// suffix draws the five characters Kubernetes appends to a generated name,
// from the alphabet it uses (no vowels, no look-alike digits).
func (g *generator) suffix() string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	var b [5]byte
	for i := range b {
		b[i] = alphabet[g.rng.IntN(len(alphabet))]
	}
	return string(b[:])
}

// nextAddress returns the next endpoint address in 10.0.0.0/8, skipping the
// .0 and .255 of each /24; distinct for the first 16 million endpoints.
func (g *generator) nextAddress() string {
	n := g.endpoints
	g.endpoints++
	return fmt.Sprintf("10.%d.%d.%d", n/(254*256)%256, n/254%256, n%254+1)
}
