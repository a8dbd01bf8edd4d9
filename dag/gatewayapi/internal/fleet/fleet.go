package fleet

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/provision"
)

// Apply sets the addresses of Gateway gw, whose status is being written,
// from its fleet's Service in idx, and makes a Programmed Gateway without
// one not Programmed.
func Apply(idx *refs.Index, gw types.NamespacedName, status *gatewayv1.GatewayStatus, cond *report.Conditions) {
	name := types.NamespacedName{Namespace: gw.Namespace, Name: provision.ServiceName(gw)}
	svc := idx.Service(name)
	if svc == nil {
		return
	}
	status.Addresses = Addresses(svc.Service)
	if c := report.FindCondition(cond.List, string(gatewayv1.GatewayConditionProgrammed)); len(status.Addresses) == 0 && c != nil && c.Status == metav1.ConditionTrue {
		cond.Set(string(gatewayv1.GatewayConditionProgrammed), false, string(gatewayv1.GatewayReasonAddressNotAssigned),
			fmt.Sprintf("The Envoy fleet's Service %s has no address yet (type %s).", report.RefName(name), svc.Service.Spec.Type))
	}
}

// Addresses are a fleet Service's addresses, as a Gateway's status lists
// them: its load balancer's IPs and hostnames, or its ClusterIP when it is
// of type ClusterIP.
func Addresses(svc *corev1.Service) []gatewayv1.GatewayStatusAddress {
	ip, host := gatewayv1.IPAddressType, gatewayv1.HostnameAddressType
	var out []gatewayv1.GatewayStatusAddress
	switch svc.Spec.Type {
	case corev1.ServiceTypeClusterIP, "":
		if a := svc.Spec.ClusterIP; a != "" && a != corev1.ClusterIPNone {
			out = append(out, gatewayv1.GatewayStatusAddress{Type: &ip, Value: a})
		}
	default:
		for _, in := range svc.Status.LoadBalancer.Ingress {
			if in.IP != "" {
				out = append(out, gatewayv1.GatewayStatusAddress{Type: &ip, Value: in.IP})
			}
			if in.Hostname != "" {
				out = append(out, gatewayv1.GatewayStatusAddress{Type: &host, Value: in.Hostname})
			}
		}
	}
	return out
}
