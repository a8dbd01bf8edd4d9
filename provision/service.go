package provision

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// Cloud load balancer annotations, as the providers document them.
const (
	awsInternal       = "service.beta.kubernetes.io/aws-load-balancer-internal"
	awsType           = "service.beta.kubernetes.io/aws-load-balancer-type"
	awsBackend        = "service.beta.kubernetes.io/aws-load-balancer-backend-protocol"
	azureInternal     = "service.beta.kubernetes.io/azure-load-balancer-internal"
	azureGroup        = "service.beta.kubernetes.io/azure-load-balancer-resource-group"
	azureSubnet       = "service.beta.kubernetes.io/azure-load-balancer-internal-subnet"
	gcpType           = "networking.gke.io/load-balancer-type"
	gcpInternalSubnet = "networking.gke.io/internal-load-balancer-subnet"
)

// service is the Service of a fleet: its type, ports, traffic policy and
// cloud annotations from the publishing settings (nil is an external
// LoadBalancer Service), and the Gateway's IP address, where its type can
// take it (CheckAddresses).
func service(meta metav1.ObjectMeta, gw *gatewayv1.Gateway, np *v1alpha1.NetworkPublishing, ps []port) *corev1.Service {
	if np == nil {
		np = &v1alpha1.NetworkPublishing{}
	}
	svc := &corev1.Service{TypeMeta: typeMeta("v1", "Service"), ObjectMeta: meta, Spec: corev1.ServiceSpec{Selector: selector(gw)}}
	switch np.Type {
	case v1alpha1.NodePortService:
		svc.Spec.Type = corev1.ServiceTypeNodePort
	case v1alpha1.ClusterIPService, v1alpha1.GatewayAPI:
		svc.Spec.Type = corev1.ServiceTypeClusterIP
	default:
		svc.Spec.Type = corev1.ServiceTypeLoadBalancer
	}
	for _, p := range ps {
		sp := corev1.ServicePort{Name: p.name, Protocol: corev1.ProtocolTCP, Port: p.port, TargetPort: intstr.FromInt32(p.bind)}
		if svc.Spec.Type != corev1.ServiceTypeClusterIP {
			for _, n := range np.NodePorts {
				if n.Port == p.port {
					sp.NodePort = n.NodePort
				}
			}
		}
		svc.Spec.Ports = append(svc.Spec.Ports, sp)
	}
	if svc.Spec.Type != corev1.ServiceTypeClusterIP {
		svc.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
		if np.ExternalTrafficPolicy != "" {
			svc.Spec.ExternalTrafficPolicy = np.ExternalTrafficPolicy
		}
	}
	if svc.Spec.Type == corev1.ServiceTypeLoadBalancer {
		if a := cloudAnnotations(np); len(a) > 0 {
			svc.Annotations = maps.Clone(svc.Annotations)
			if svc.Annotations == nil {
				svc.Annotations = map[string]string{}
			}
			maps.Copy(svc.Annotations, a)
		}
	}
	if ips := CheckAddresses(gw, &v1alpha1.EnvoyConfig{NetworkPublishing: np}).Requested; len(ips) == 1 {
		switch np.Type {
		case v1alpha1.ClusterIPService:
			svc.Spec.ClusterIP = ips[0]
		case v1alpha1.GatewayAPI, v1alpha1.NodePortService:
		default:
			svc.Spec.LoadBalancerIP = ips[0]
		}
	}
	return svc
}

// cloudAnnotations are the load balancer annotations of the scope and
// provider.
func cloudAnnotations(np *v1alpha1.NetworkPublishing) map[string]string {
	out := map[string]string{}
	internal := np.Scope == v1alpha1.Internal
	p := np.ProviderParameters
	if p == nil {
		return out
	}
	switch p.Type {
	case v1alpha1.AWS:
		if internal {
			out[awsInternal] = "true"
		}
		if p.AWS != nil && p.AWS.Type == v1alpha1.AWSNLB {
			out[awsType] = "nlb"
		} else {
			out[awsBackend] = "tcp"
		}
	case v1alpha1.Azure:
		if internal {
			out[azureInternal] = "true"
		}
		if a := p.Azure; a != nil {
			if a.ResourceGroup != "" {
				out[azureGroup] = a.ResourceGroup
			}
			if a.Subnet != "" && internal {
				out[azureSubnet] = a.Subnet
			}
		}
	case v1alpha1.GCP:
		if internal {
			out[gcpType] = "Internal"
			if p.GCP != nil && p.GCP.Subnet != "" {
				out[gcpInternalSubnet] = p.GCP.Subnet
			}
		}
	}
	return out
}
