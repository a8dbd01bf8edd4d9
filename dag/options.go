package dag

import (
	"time"

	"k8s.io/apimachinery/pkg/types"

	sesamev1alpha1 "github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// DefaultControllerName is the GatewayClass spec.controllerName Sesame
// answers to when Options.ControllerName is empty.
const DefaultControllerName = "projectsesame.io/gateway-controller"

// Options are the settings of one translation. The zero value is usable.
type Options struct {
	// ControllerName selects the GatewayClasses this translation acts for.
	// Empty means the controllerName of Config's spec.gateway, or else
	// DefaultControllerName.
	ControllerName string
	// Config names Sesame's own SesameConfiguration among
	// Input.SesameConfigurations; the zero value names none. Its envoy
	// field, under the parameters GatewayClasses and Gateways name, is the
	// configuration of their Envoy fleets (package provision), which decides
	// what a Gateway's spec.addresses may ask for and which Service gives
	// its status.addresses.
	Config types.NamespacedName
	// Now is the time written to status conditions as lastTransitionTime.
	// Passing it in keeps Build a pure function: the same input and Now give
	// the same output.
	Now time.Time
	// BindPorts maps a Gateway listener port to the port Envoy binds, for
	// deployments where something in front translates ports (seed: traffic
	// for 80 and 443 reaches Envoy on 8080 and 8443). Ports not in the map
	// are bound as they are. Resource names and status keep the Gateway's
	// port.
	BindPorts map[int32]int32
	// AllGateways serves every Gateway of the selected GatewayClass, each
	// into its own, separately named Envoy resources, instead of only the
	// oldest (the seeds' one Gateway per Envoy fleet). Each Gateway's
	// resources are then meant for its own Envoy fleet: two Gateways may bind
	// the same port.
	AllGateways bool
	// RootNamespaces lists the namespaces where HTTPProxies may be roots
	// (have spec.virtualhost), as seed 003's "root HTTPProxy namespaces"
	// let a cluster administrator carve off. A root elsewhere is invalid and
	// claims nothing. Empty allows roots in every namespace.
	RootNamespaces []string
	// IngressPorts are the ports Envoy binds for HTTPProxy and Ingress
	// virtual hosts. When a served Gateway's listener binds one of them
	// too, they share it (see "Layering" in the package documentation).
	IngressPorts IngressPorts
	// IngressClass selects the Ingresses and HTTPProxies this translation
	// acts for: those whose class annotation (kubernetes.io/ingress.class;
	// for HTTPProxy also projectcontour.io/ingress.class), or else
	// spec.ingressClassName, is IngressClass, and those that name no class
	// at all. Empty means DefaultIngressClass.
	IngressClass string
	// SystemCAFile is the file of the system's CA certificates on Envoy's
	// machine, which a BackendTLSPolicy's wellKnownCACertificates: System
	// names; "" means backendtls.DefaultSystemCAFile.
	SystemCAFile string
	// RateLimitService, when set, is the service HTTPProxies' global rate
	// limits ask; without it they cannot be honoured, and fail closed.
	RateLimitService *RateLimitService
	// FallbackCertificate, when set, names the kubernetes.io/tls Secret
	// that serves clients whose TLS server name matches no chain (or who
	// send none), for the HTTPProxy roots that enable it
	// (spec.virtualhost.tls.enableFallbackCertificate), as Contour's
	// configuration does.
	FallbackCertificate *types.NamespacedName
}

// RateLimitService names the rate limit service of global rate limits, as
// Contour's configuration does: an ExtensionService (namespace/name), the
// domain its limits are under, and how Envoy treats its answers.
type RateLimitService struct {
	ExtensionService types.NamespacedName
	// Domain is sent with every request; empty is "contour", Contour's
	// default, so that a rate limit service's configuration keeps working.
	Domain string
	// FailOpen lets requests go on when the service cannot be asked.
	FailOpen bool
	// EnableXRateLimitHeaders adds the X-RateLimit-* headers to responses.
	EnableXRateLimitHeaders bool
	// EnableResourceExhaustedCode answers limited gRPC requests
	// RESOURCE_EXHAUSTED rather than UNAVAILABLE.
	EnableResourceExhaustedCode bool
}

// DefaultIngressClass is the Ingress class Sesame answers to when
// Options.IngressClass is empty.
const DefaultIngressClass = "sesame"

func (o Options) ingressClass() string {
	if o.IngressClass == "" {
		return DefaultIngressClass
	}
	return o.IngressClass
}

// IngressPorts are the ports Envoy binds for HTTPProxy and Ingress virtual
// hosts. Zero means Contour's defaults for Envoy, 8080 and 8443.
// Clients are taken to reach them as ports 80 and 443 (Contour's Envoy
// Service maps them so), which is what redirects to https name.
type IngressPorts struct {
	HTTP, HTTPS int32
}

// The ports used when IngressPorts leaves them zero: Contour's Envoy
// defaults.
const (
	// DefaultIngressHTTPPort is the port for HTTPProxy virtual hosts over
	// HTTP.
	DefaultIngressHTTPPort = 8080
	// DefaultIngressHTTPSPort is the port for HTTPProxy virtual hosts over
	// TLS.
	DefaultIngressHTTPSPort = 8443
)

// withDefaults fills zero ports with the defaults.
func (p IngressPorts) withDefaults() IngressPorts {
	if p.HTTP == 0 {
		p.HTTP = DefaultIngressHTTPPort
	}
	if p.HTTPS == 0 {
		p.HTTPS = DefaultIngressHTTPSPort
	}
	return p
}

func (o Options) controllerName() string {
	if o.ControllerName == "" {
		return DefaultControllerName
	}
	return o.ControllerName
}

// ownConfig is the configuration Config names, nil when configs do not
// hold it; with it, an empty ControllerName is the configuration's.
func (o *Options) ownConfig(configs []*sesamev1alpha1.SesameConfiguration) *sesamev1alpha1.SesameConfiguration {
	for _, c := range configs {
		if c != nil && o.Config.Name != "" && c.Namespace == o.Config.Namespace && c.Name == o.Config.Name {
			if o.ControllerName == "" && c.Spec.Gateway != nil {
				o.ControllerName = c.Spec.Gateway.ControllerName
			}
			return c
		}
	}
	return nil
}
