package sesame_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
)

func ExampleTranslate() {
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: "default", Name: name, Generation: 1}
	}
	port := gatewayv1.PortNumber(80)
	objects := []runtime.Object{
		&gatewayv1.GatewayClass{
			ObjectMeta: metav1.ObjectMeta{Name: "sesame"},
			Spec:       gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName},
		},
		&gatewayv1.Gateway{
			ObjectMeta: meta("public"),
			Spec: gatewayv1.GatewaySpec{
				GatewayClassName: "sesame",
				Listeners:        []gatewayv1.Listener{{Name: "http", Protocol: gatewayv1.HTTPProtocolType, Port: 80}},
			},
		},
		&gatewayv1.HTTPRoute{
			ObjectMeta: meta("web"),
			Spec: gatewayv1.HTTPRouteSpec{
				CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "public"}}},
				Hostnames:       []gatewayv1.Hostname{"www.example.com"},
				Rules: []gatewayv1.HTTPRouteRule{{
					BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: gatewayv1.BackendRef{
						BackendObjectReference: gatewayv1.BackendObjectReference{Name: "web", Port: &port},
					}}},
				}},
			},
		},
		&corev1.Service{
			ObjectMeta: meta("web"),
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
		},
		&discoveryv1.EndpointSlice{
			ObjectMeta:  metav1.ObjectMeta{Namespace: "default", Name: "web-1", Labels: map[string]string{discoveryv1.LabelServiceName: "web"}},
			AddressType: discoveryv1.AddressTypeIPv4,
			Ports:       []discoveryv1.EndpointPort{{Name: new("http"), Port: new(int32(8080))}},
			Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.7"}}},
		},
	}

	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		panic(err)
	}
	for _, l := range res.XDS.Listeners {
		fmt.Println("listener", l.GetName())
	}
	for _, rc := range res.XDS.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			fmt.Println("virtual host", vh.GetName(), vh.GetDomains())
		}
	}
	for _, cla := range res.XDS.Endpoints {
		fmt.Println("endpoints of", cla.GetClusterName(), len(cla.GetEndpoints()[0].GetLbEndpoints()))
	}
	for _, s := range res.Status {
		fmt.Println("status of", s.Kind, s.Name)
	}
	// Output:
	// listener gateway/default/public/80
	// virtual host default/public/http/www.example.com [www.example.com]
	// endpoints of service/default/web/80 1
	// status of Gateway public
	// status of GatewayClass sesame
	// status of HTTPRoute web
}
