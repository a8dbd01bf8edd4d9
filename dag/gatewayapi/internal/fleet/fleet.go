package fleet

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/provision"
)

// Fleets is what one translation knows of the Envoy fleets: Sesame's own
// configuration, the configurations parametersRefs may name, and what each
// served Gateway's resolve to.
type Fleets struct {
	own     *v1alpha1.SesameConfiguration
	configs []*v1alpha1.SesameConfiguration
	// used are the configurations named (whether usable or not); gateways
	// the Gateways admitted, with their fleet's configuration and addresses.
	used     map[types.NamespacedName]bool
	gateways map[types.NamespacedName]admitted
}

type admitted struct {
	envoy     *v1alpha1.EnvoyConfig
	addresses provision.AddressCheck
}

// New returns the fleets of own (Sesame's own configuration, nil for none)
// and configs.
func New(own *v1alpha1.SesameConfiguration, configs []*v1alpha1.SesameConfiguration) *Fleets {
	f := &Fleets{own: own, configs: configs, used: map[types.NamespacedName]bool{}, gateways: map[types.NamespacedName]admitted{}}
	if own != nil {
		f.used[types.NamespacedName{Namespace: own.Namespace, Name: own.Name}] = true
	}
	return f
}

// Class says whether the fleets of class's Gateways are provisioned (its
// parameters or Sesame's configuration have an envoy field), and why its
// spec.parametersRef cannot be used, for its Accepted=False,
// InvalidParameters, or "".
func (f *Fleets) Class(class *gatewayv1.GatewayClass) (managed bool, problem string) {
	if ref := class.Spec.ParametersRef; ref != nil && ref.Namespace != nil {
		f.used[types.NamespacedName{Namespace: string(*ref.Namespace), Name: ref.Name}] = true
	}
	c, problem := provision.ResolveClass(class, f.configs)
	return provision.Gateway{ClassParameters: c}.Envoy(f.own) != nil, problem
}

// Admit returns the reason and message of gw's Accepted=False, or "" when
// its parameters and addresses can be used: InvalidParameters for its
// spec.infrastructure.parametersRef, UnsupportedAddress for an address of
// a type Sesame does not take. class is gw's, already accepted.
func (f *Fleets) Admit(gw *gatewayv1.Gateway, class *gatewayv1.GatewayClass) (reason, message string) {
	if inf := gw.Spec.Infrastructure; inf != nil && inf.ParametersRef != nil {
		f.used[types.NamespacedName{Namespace: gw.Namespace, Name: inf.ParametersRef.Name}] = true
	}
	g := provision.ResolveGateway(gw, class, f.configs)
	if g.Problem != "" {
		return string(gatewayv1.GatewayReasonInvalidParameters), g.Problem + " The Envoy fleet is left as it is."
	}
	envoy := g.Envoy(f.own)
	check := provision.CheckAddresses(gw, envoy)
	if check.Unsupported != "" {
		return string(gatewayv1.GatewayReasonUnsupportedAddress), check.Unsupported
	}
	f.gateways[types.NamespacedName{Namespace: gw.Namespace, Name: gw.Name}] = admitted{envoy: envoy, addresses: check}
	return "", ""
}

// Unused are warnings for the configurations that shape no fleet.
func (f *Fleets) Unused() []string {
	var out []string
	for _, c := range f.configs {
		if c != nil && !f.used[types.NamespacedName{Namespace: c.Namespace, Name: c.Name}] {
			out = append(out, fmt.Sprintf("SesameConfiguration %s/%s: neither Sesame's own configuration nor named by the parametersRef of a GatewayClass or Gateway Sesame serves; not used", c.Namespace, c.Name))
		}
	}
	slices.Sort(out)
	return out
}

// Apply writes what the fleet of admitted Gateway gw says in its status:
// the addresses of the fleet's Service, when idx holds it, and a
// Programmed Gateway whose addresses cannot be taken, or are not assigned
// yet, becomes not Programmed with the spec's reason, naming them.
func (f *Fleets) Apply(idx *refs.Index, gw types.NamespacedName, status *gatewayv1.GatewayStatus, cond *report.Conditions) {
	a := f.gateways[gw]
	programmed := func() bool {
		c := report.FindCondition(cond.List, string(gatewayv1.GatewayConditionProgrammed))
		return c != nil && c.Status == metav1.ConditionTrue
	}
	notProgrammed := func(reason gatewayv1.GatewayConditionReason, msg string) {
		cond.Set(string(gatewayv1.GatewayConditionProgrammed), false, string(reason), msg)
	}
	if a.addresses.NotUsable != "" && programmed() {
		notProgrammed(gatewayv1.GatewayReasonAddressNotUsable, a.addresses.NotUsable)
	}
	ns := gw.Namespace
	if a.envoy != nil {
		ns = cmp.Or(a.envoy.Namespace, ns)
	}
	name := types.NamespacedName{Namespace: ns, Name: provision.ServiceName(gw)}
	svc := idx.Service(name)
	if svc == nil {
		return
	}
	status.Addresses = Addresses(svc.Service)
	if !programmed() {
		return
	}
	var have []string
	for _, s := range status.Addresses {
		have = append(have, s.Value)
	}
	if len(have) == 0 {
		msg := fmt.Sprintf("The Envoy fleet's Service %s has no address yet (type %s).", report.RefName(name), svc.Service.Spec.Type)
		if len(a.addresses.Requested) > 0 {
			msg += fmt.Sprintf(" spec.addresses asks for %s: if it stays so, the address may not be free or in the load balancer's range.", a.addresses.Requested[0])
		}
		notProgrammed(gatewayv1.GatewayReasonAddressNotAssigned, msg)
		return
	}
	for _, want := range a.addresses.Requested {
		if !slices.Contains(have, want) {
			notProgrammed(gatewayv1.GatewayReasonAddressNotUsable, fmt.Sprintf(
				"spec.addresses asks for %s, but the Envoy fleet's Service %s has %s: the address was not taken (is it free, and in the range of the load balancer or the cluster's Services?).",
				want, report.RefName(name), strings.Join(have, ", ")))
			return
		}
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
