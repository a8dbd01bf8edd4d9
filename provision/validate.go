package provision

import (
	"fmt"
	"net"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// logLevels are Envoy's log levels.
var logLevels = []string{"trace", "debug", "info", "warn", "error", "critical", "off"}

// validate says what is wrong with an envoy configuration at field, or "".
func validate(e *v1alpha1.EnvoyConfig, field string) string {
	if e == nil {
		return ""
	}
	switch {
	case e.WorkloadType != "" && e.WorkloadType != v1alpha1.DaemonSet && e.WorkloadType != v1alpha1.Deployment:
		return fmt.Sprintf("%s.workloadType %q is not DaemonSet or Deployment.", field, e.WorkloadType)
	case e.Replicas != nil && (*e.Replicas < 0 || *e.Replicas > 1000):
		return fmt.Sprintf("%s.replicas %d is not in 0 to 1000.", field, *e.Replicas)
	case e.LogLevel != "" && !slices.Contains(logLevels, e.LogLevel):
		return fmt.Sprintf("%s.logLevel %q is not one of trace, debug, info, warn, error, critical, off.", field, e.LogLevel)
	case e.Namespace != "" && len(validation.IsDNS1123Label(e.Namespace)) > 0:
		return fmt.Sprintf("%s.namespace %q is not a namespace name.", field, e.Namespace)
	}
	if r := e.Resources; r != nil {
		for name, req := range r.Requests {
			if limit, ok := r.Limits[name]; ok && req.Cmp(limit) > 0 {
				return fmt.Sprintf("%s.resources: the %s request %s is above its limit %s.", field, name, req.String(), limit.String())
			}
		}
	}
	if strings.TrimSpace(e.Image) != e.Image {
		return fmt.Sprintf("%s.image %q has leading or trailing spaces.", field, e.Image)
	}
	for k := range e.PodAnnotations {
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			return fmt.Sprintf("%s.podAnnotations: %q is not an annotation key: %s.", field, k, errs[0])
		}
	}
	if np := e.NetworkPublishing; np != nil {
		return validatePublishing(np, field+".networkPublishing")
	}
	return ""
}

func validatePublishing(np *v1alpha1.NetworkPublishing, field string) string {
	switch np.Type {
	case "", v1alpha1.LoadBalancerService, v1alpha1.NodePortService, v1alpha1.ClusterIPService:
	case v1alpha1.GatewayAPI:
		if np.GatewayClassName == "" {
			return field + ".gatewayClassName is required with type GatewayAPI."
		}
	default:
		return fmt.Sprintf("%s.type %q is not LoadBalancerService, NodePortService, ClusterIPService or GatewayAPI.", field, np.Type)
	}
	switch np.Scope {
	case "", v1alpha1.External, v1alpha1.Internal:
	default:
		return fmt.Sprintf("%s.scope %q is not External or Internal.", field, np.Scope)
	}
	switch np.ExternalTrafficPolicy {
	case "", corev1.ServiceExternalTrafficPolicyLocal, corev1.ServiceExternalTrafficPolicyCluster:
	default:
		return fmt.Sprintf("%s.externalTrafficPolicy %q is not Local or Cluster.", field, np.ExternalTrafficPolicy)
	}
	for i, n := range np.NodePorts {
		if n.Port < 1 || n.Port > 65535 || n.NodePort < 1 || n.NodePort > 65535 {
			return fmt.Sprintf("%s.nodePorts[%d]: port %d and nodePort %d must be in 1 to 65535.", field, i, n.Port, n.NodePort)
		}
	}
	if p := np.ProviderParameters; p != nil {
		at := field + ".providerParameters"
		switch p.Type {
		case v1alpha1.AWS:
			if p.AWS != nil && p.AWS.Type != "" && p.AWS.Type != v1alpha1.AWSClassic && p.AWS.Type != v1alpha1.AWSNLB {
				return fmt.Sprintf("%s.aws.type %q is not Classic or NLB.", at, p.AWS.Type)
			}
		case v1alpha1.Azure, v1alpha1.GCP:
		default:
			return fmt.Sprintf("%s.type %q is not AWS, Azure or GCP.", at, p.Type)
		}
	}
	return ""
}

// validateXDS says what is wrong with the xDS server's address, or "".
func validateXDS(x *v1alpha1.XDSServer) string {
	switch {
	case x == nil:
	case x.Port < 0 || x.Port > 65535:
		return fmt.Sprintf("spec.xdsServer.port %d is not in 1 to 65535.", x.Port)
	case x.Address != "" && net.ParseIP(x.Address) == nil && len(validation.IsDNS1123Subdomain(x.Address)) > 0:
		return fmt.Sprintf("spec.xdsServer.address %q is neither an IP address nor a DNS name.", x.Address)
	case x.TLS == nil:
	case len(validation.IsDNS1123Subdomain(x.TLS.SecretName)) > 0:
		return fmt.Sprintf("spec.xdsServer.tls.secretName %q is not a Secret name.", x.TLS.SecretName)
	case x.TLS.ServerName != "" && net.ParseIP(x.TLS.ServerName) == nil && len(validation.IsDNS1123Subdomain(x.TLS.ServerName)) > 0:
		return fmt.Sprintf("spec.xdsServer.tls.serverName %q is neither an IP address nor a DNS name.", x.TLS.ServerName)
	}
	return ""
}
