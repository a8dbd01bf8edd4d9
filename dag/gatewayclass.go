package dag

import (
	"fmt"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// selectGatewayClass picks the GatewayClass this translation serves: the
// oldest one whose controllerName is ours (seed: "Should two different
// Gateway or GatewayClasses be found matching the same ControllerName, then
// [Sesame] will utilize the oldest created object and set a status on the
// other(s) which describes that object as being rejected"). Classes of other
// controllers are out of scope and get no status.
func (b *builder) selectGatewayClass(classes []*gatewayv1.GatewayClass) *gatewayv1.GatewayClass {
	var selected *gatewayv1.GatewayClass
	for _, class := range sortedOldestFirst(classes) {
		if string(class.Spec.ControllerName) != b.opts.controllerName() {
			continue
		}
		cond := b.conditions(class)
		if selected == nil {
			selected = class
			cond.set(string(gatewayv1.GatewayClassConditionStatusAccepted), true,
				string(gatewayv1.GatewayClassReasonAccepted),
				fmt.Sprintf("Accepted by controller %s.", b.opts.controllerName()))
		} else {
			cond.set(string(gatewayv1.GatewayClassConditionStatusAccepted), false,
				string(gatewayv1.GatewayClassReasonUnsupported),
				fmt.Sprintf("GatewayClass %q has the same controllerName and is older; one controller serves one GatewayClass, the oldest.", selected.Name))
		}
		b.addStatus("GatewayClass", class, &gatewayv1.GatewayClassStatus{Conditions: cond.list})
	}
	return selected
}

// selectGateway picks the Gateway this translation serves: the oldest of the
// class (seed: one Gateway describes one Envoy deployment). The others get
// Accepted=False with reason NotSelected, a Sesame reason, because no reason
// of the v1 API describes a Gateway that lost to an older one.
func (b *builder) selectGateway(gateways []*gatewayv1.Gateway, class *gatewayv1.GatewayClass) *gatewayv1.Gateway {
	var selected *gatewayv1.Gateway
	for _, gw := range sortedOldestFirst(gateways) {
		if string(gw.Spec.GatewayClassName) != class.Name {
			continue
		}
		if selected == nil {
			selected = gw
			continue
		}
		cond := b.conditions(gw)
		msg := fmt.Sprintf("Gateway %s/%s of the same GatewayClass is older; one Envoy fleet serves one Gateway, the oldest.", selected.Namespace, selected.Name)
		cond.set(string(gatewayv1.GatewayConditionAccepted), false, ReasonNotSelected, msg)
		cond.set(string(gatewayv1.GatewayConditionProgrammed), false, string(gatewayv1.GatewayReasonInvalid), msg)
		b.addStatus("Gateway", gw, &gatewayv1.GatewayStatus{Conditions: cond.list})
	}
	return selected
}

// ReasonNotSelected is the reason of Accepted=False on a Gateway that is not
// served because an older Gateway of the same GatewayClass is.
const ReasonNotSelected = "NotSelected"
