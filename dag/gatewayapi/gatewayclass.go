package gatewayapi

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/order"
)

// classSelection is the outcome of selectGatewayClass.
type classSelection struct {
	// selected is the GatewayClass served; nil when none has our controller.
	selected *gatewayv1.GatewayClass
	// rejected are the other classes of our controller, by name.
	rejected map[string]bool
}

// selectGatewayClass picks the GatewayClass this translation serves: the
// oldest one whose controllerName is ours (seed: "Should two different
// Gateway or GatewayClasses be found matching the same ControllerName, then
// [Sesame] will utilize the oldest created object and set a status on the
// other(s) which describes that object as being rejected"), of those whose
// spec.parametersRef can be used (Accepted=False, InvalidParameters
// otherwise). Classes of other controllers are out of scope and get no
// status.
func (b *Builder) selectGatewayClass(classes []*gatewayv1.GatewayClass) classSelection {
	sel := classSelection{rejected: map[string]bool{}}
	for _, class := range order.OldestFirst(classes) {
		b.scope.classes[class.Name] = string(class.Spec.ControllerName)
		if string(class.Spec.ControllerName) != b.opts.ControllerName {
			continue
		}
		cond := b.conditions(class)
		status := &gatewayv1.GatewayClassStatus{}
		managed, problem := b.fleets.Class(class)
		switch {
		case problem != "":
			sel.rejected[class.Name] = true
			cond.Set(string(gatewayv1.GatewayClassConditionStatusAccepted), false,
				string(gatewayv1.GatewayClassReasonInvalidParameters), problem+" Its Gateways are not served.")
		case sel.selected == nil:
			status.SupportedFeatures = SupportedFeatures(managed)
			sel.selected = class
			cond.Set(string(gatewayv1.GatewayClassConditionStatusAccepted), true,
				string(gatewayv1.GatewayClassReasonAccepted),
				fmt.Sprintf("Accepted by controller %s.", b.opts.ControllerName))
		default:
			sel.rejected[class.Name] = true
			cond.Set(string(gatewayv1.GatewayClassConditionStatusAccepted), false,
				string(gatewayv1.GatewayClassReasonUnsupported),
				fmt.Sprintf("GatewayClass %q has the same controllerName and is older; one controller serves one GatewayClass, the oldest.", sel.selected.Name))
		}
		status.Conditions = cond.List
		b.addStatus("GatewayClass", class, status)
	}
	return sel
}

// selectGateways picks the Gateways this translation serves: the oldest of
// the selected class (seed: one Gateway describes one Envoy deployment), or
// all of them with Options.AllGateways, of those whose parameters and
// addresses can be used (fleet.Fleets.Admit: InvalidParameters or
// UnsupportedAddress otherwise). The others of that class get
// Accepted=False with reason NotSelected, a Sesame reason, because no reason
// of the v1 API describes a Gateway that lost to an older one. Gateways of
// our rejected classes get no status of their own (the class's status says
// why), but a warning names them, and routes that name them are told.
func (b *Builder) selectGateways(gateways []*gatewayv1.Gateway, classes classSelection) []*gatewayv1.Gateway {
	var selected []*gatewayv1.Gateway
	for _, gw := range order.OldestFirst(gateways) {
		key := types.NamespacedName{Namespace: gw.Namespace, Name: gw.Name}
		class := string(gw.Spec.GatewayClassName)
		switch {
		case classes.rejected[class]:
			b.unserved[key] = fmt.Sprintf("its GatewayClass %q is not accepted; see the GatewayClass status.", class)
			b.scope.rejectGateway(key, class)
			continue
		case classes.selected == nil || class != classes.selected.Name:
			b.scope.ignoreGateway(key, class)
			continue
		}
		reason, msg := b.fleets.Admit(gw, classes.selected)
		switch {
		case reason != "":
		case len(selected) == 0 || b.opts.AllGateways:
			selected = append(selected, gw)
			continue
		default:
			reason, msg = ReasonNotSelected, fmt.Sprintf("Gateway %s/%s of the same GatewayClass is older; one Envoy fleet serves one Gateway, the oldest.", selected[0].Namespace, selected[0].Name)
		}
		b.unserved[key] = msg
		cond := b.conditions(gw)
		cond.Set(string(gatewayv1.GatewayConditionAccepted), false, reason, msg)
		cond.Set(string(gatewayv1.GatewayConditionProgrammed), false, string(gatewayv1.GatewayReasonInvalid), msg)
		b.addStatus("Gateway", gw, &gatewayv1.GatewayStatus{Conditions: cond.List})
	}
	b.warnings = append(b.warnings, b.scope.classWarnings(b.opts.ControllerName)...)
	return selected
}

// ReasonNotSelected is the reason of Accepted=False on a Gateway that is not
// served because an older Gateway of the same GatewayClass is.
const ReasonNotSelected = "NotSelected"
