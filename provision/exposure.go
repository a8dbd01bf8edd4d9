package provision

import (
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	corev1 "k8s.io/api/core/v1"
)

// exposure exposes a fleet through another Gateway API implementation
// (networkPublishing.type GatewayAPI, seed 001 "Exposing Envoy"): a
// Gateway of the configured class, named as the fleet's Service, with a TCP
// listener per Service port, and a TCPRoute per port that sends its
// connections to the Service. The other implementation's controller does
// what a LoadBalancer Service would, and is handed the addresses the
// Gateway asks for (CheckAddresses).
func exposure(svc *corev1.Service, className string, addresses []string) []runtime.Object {
	gw := &gatewayv1.Gateway{
		TypeMeta:   typeMeta(gatewayv1.GroupVersion.String(), "Gateway"),
		ObjectMeta: svc.ObjectMeta,
		Spec:       gatewayv1.GatewaySpec{GatewayClassName: gatewayv1.ObjectName(className)},
	}
	gw.Annotations = nil // the cloud annotations are the Service's
	for _, a := range addresses {
		gw.Spec.Addresses = append(gw.Spec.Addresses, gatewayv1.GatewaySpecAddress{Type: ptr(gatewayv1.IPAddressType), Value: a})
	}
	out := []runtime.Object{gw}
	for _, p := range svc.Spec.Ports {
		section := gatewayv1.SectionName(p.Name)
		gw.Spec.Listeners = append(gw.Spec.Listeners, gatewayv1.Listener{Name: section, Port: p.Port, Protocol: gatewayv1.TCPProtocolType})
		route := &gatewayv1.TCPRoute{
			TypeMeta:   typeMeta(gatewayv1.GroupVersion.String(), "TCPRoute"),
			ObjectMeta: svc.ObjectMeta,
			Spec: gatewayv1.TCPRouteSpec{
				CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: gatewayv1.ObjectName(svc.Name), SectionName: &section}}},
				Rules: []gatewayv1.TCPRouteRule{{BackendRefs: []gatewayv1.BackendRef{{BackendObjectReference: gatewayv1.BackendObjectReference{
					Name: gatewayv1.ObjectName(svc.Name), Port: ptr(p.Port),
				}}}}},
			},
		}
		route.Name = cutName(svc.Name + "-" + p.Name)
		route.Annotations = nil
		out = append(out, route)
	}
	return out
}
