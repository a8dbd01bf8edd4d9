package backendtls

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// DefaultSystemCAFile is where Envoy's image keeps the system's CA
// certificates (Debian's and distroless' ca-certificates bundle).
const DefaultSystemCAFile = "/etc/ssl/certs/ca-certificates.crt"

// Options are what Resolve and Status need besides their input.
type Options struct {
	// ControllerName is written in each ancestor's status.
	ControllerName string
	// Now is the conditions' lastTransitionTime.
	Now metav1.Time
	// SystemCAFile is the file of the system's CA certificates on Envoy's
	// machine, for wellKnownCACertificates: System; "" means
	// DefaultSystemCAFile.
	SystemCAFile string
}

// Result is what Resolve found: the policies of each Service port, and
// what each policy's status will say.
type Result struct {
	// ByPort is what the policies give each targeted port; install it
	// with refs.Index.SetBackendTLS.
	ByPort   map[refs.PortKey]*refs.BackendTLS
	policies []*policy
	opts     Options
}

// policy is one BackendTLSPolicy as resolved.
type policy struct {
	obj  *gatewayv1.BackendTLSPolicy
	name types.NamespacedName
	// tls is how Envoy connects under the policy; nil when it is invalid.
	tls *graph.UpstreamTLS
	// accepted: reason "" when Accepted=True, else the reason and message.
	reason, message string
	// refReason and refProblems are ResolvedRefs: "" when True.
	refReason   string
	refProblems []string
	// lost names the targets where an older policy applies instead.
	lost, won []string
	// notFound are targets that name no Service or no such port.
	notFound []string
}

// Resolve reads policies against the Services, ConfigMaps and Secrets of
// index.
func Resolve(policies []*gatewayv1.BackendTLSPolicy, index *refs.Index, opts Options) *Result {
	if opts.SystemCAFile == "" {
		opts.SystemCAFile = DefaultSystemCAFile
	}
	r := &Result{ByPort: map[refs.PortKey]*refs.BackendTLS{}, opts: opts}
	byKey := map[refs.PortKey][]*policy{}
	for _, obj := range order.OldestFirst(policies) {
		p := &policy{obj: obj, name: types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}}
		r.policies = append(r.policies, p)
		p.resolve(index, opts)
		for i, t := range obj.Spec.TargetRefs {
			key, problem := target(index, obj.Namespace, t)
			if problem != "" {
				p.notFound = append(p.notFound, fmt.Sprintf("spec.targetRefs[%d]: %s", i, problem))
				continue
			}
			byKey[key] = append(byKey[key], p)
		}
	}
	for key, ps := range byKey { // each list is oldest first: ps[0] applies
		bt := &refs.BackendTLS{TLS: ps[0].tls}
		if bt.TLS == nil {
			bt.Problem = fmt.Sprintf("its BackendTLSPolicy %s is not accepted: %s", report.RefName(ps[0].name), report.TrimDot(ps[0].message))
		}
		for i, p := range ps {
			bt.Policies = append(bt.Policies, p.name)
			what := describeKey(key)
			if i == 0 {
				p.won = append(p.won, what)
			} else {
				p.lost = append(p.lost, fmt.Sprintf("%s (BackendTLSPolicy %s is older, or first by namespace/name, and applies)", what, report.RefName(ps[0].name)))
			}
		}
		r.ByPort[key] = bt
	}
	for _, p := range r.policies {
		slices.Sort(p.won)
		slices.Sort(p.lost)
	}
	return r
}

// target finds what a targetRef names.
func target(index *refs.Index, namespace string, t gatewayv1.LocalPolicyTargetReferenceWithSectionName) (refs.PortKey, string) {
	if t.Group != "" || t.Kind != "Service" {
		return refs.PortKey{}, fmt.Sprintf("kind %s is not supported; BackendTLSPolicies target core Services.", refs.GroupKind(string(t.Group), string(t.Kind)))
	}
	name := types.NamespacedName{Namespace: namespace, Name: string(t.Name)}
	svc := index.Service(name)
	if svc == nil {
		return refs.PortKey{}, fmt.Sprintf("Service %s not found.", report.RefName(name))
	}
	key := refs.PortKey{Service: name}
	if t.SectionName != nil {
		key.Section = string(*t.SectionName)
		if !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == key.Section }) {
			return refs.PortKey{}, fmt.Sprintf("Service %s has no port named %q.", report.RefName(name), report.Value(key.Section))
		}
	}
	return key, ""
}

func describeKey(k refs.PortKey) string {
	if k.Section == "" {
		return fmt.Sprintf("Service %s", report.RefName(k.Service))
	}
	return fmt.Sprintf("port %q of Service %s", report.Value(k.Section), report.RefName(k.Service))
}

// resolve checks the policy's validation and options and makes its TLS.
func (p *policy) resolve(index *refs.Index, opts Options) {
	v := &p.obj.Spec.Validation
	invalid := func(format string, args ...any) {
		if p.reason == "" {
			p.reason = string(gatewayv1.PolicyReasonInvalid)
		}
		p.message = strings.TrimSpace(p.message + " " + fmt.Sprintf(format, args...))
	}
	tls := &graph.UpstreamTLS{Policy: p.name, SNI: string(v.Hostname)}
	if err := hostmatch.ValidatePrecise(tls.SNI); err != nil {
		invalid("spec.validation.hostname: %v.", err)
	}
	wellKnown := v.WellKnownCACertificates != nil && *v.WellKnownCACertificates != ""
	switch {
	case wellKnown && len(v.CACertificateRefs) > 0:
		invalid("spec.validation: give caCertificateRefs or wellKnownCACertificates, not both.")
	case wellKnown && *v.WellKnownCACertificates != gatewayv1.WellKnownCACertificatesSystem:
		invalid("spec.validation.wellKnownCACertificates %q is not supported; Sesame knows System.", report.Value(*v.WellKnownCACertificates))
	case wellKnown:
		tls.CAFile = opts.SystemCAFile
	case len(v.CACertificateRefs) == 0:
		invalid("spec.validation: give caCertificateRefs or wellKnownCACertificates.")
	default:
		tls.CA = p.caBundle(index)
	}
	for i, san := range v.SubjectAltNames {
		switch san.Type {
		case gatewayv1.HostnameSubjectAltNameType:
			if err := hostmatch.Validate(string(san.Hostname)); err != nil {
				invalid("spec.validation.subjectAltNames[%d].hostname: %v.", i, err)
			}
			tls.SubjectAltNames = append(tls.SubjectAltNames, graph.SubjectAltName{Value: string(san.Hostname)})
		case gatewayv1.URISubjectAltNameType:
			if u, err := url.Parse(string(san.URI)); err != nil || u.Scheme == "" || u.Opaque == "" && u.Host == "" && u.Path == "" {
				invalid("spec.validation.subjectAltNames[%d].uri %q is not an absolute URI.", i, report.Value(san.URI))
			}
			tls.SubjectAltNames = append(tls.SubjectAltNames, graph.SubjectAltName{URI: true, Value: string(san.URI)})
		default:
			invalid("spec.validation.subjectAltNames[%d].type %q is not Hostname or URI.", i, report.Value(san.Type))
		}
	}
	if len(p.obj.Spec.Options) > 0 {
		keys := make([]string, 0, len(p.obj.Spec.Options))
		for k := range p.obj.Spec.Options {
			keys = append(keys, fmt.Sprintf("%q", report.Value(k)))
		}
		slices.Sort(keys)
		invalid("spec.options %s: Sesame defines no options, and an option may protect traffic, so the policy is not applied without it.", strings.Join(keys, ", "))
	}
	if p.reason == "" && tls.CAFile == "" && len(tls.CA) == 0 {
		p.reason = string(gatewayv1.BackendTLSPolicyReasonNoValidCACertificate)
		p.message = "No caCertificateRef can be used: " + strings.Join(p.refProblems, " ")
	}
	if p.reason == "" {
		p.tls = tls
	}
}

// caBundle reads the CA certificates of the policy's caCertificateRefs,
// recording the problems of those it cannot use.
func (p *policy) caBundle(index *refs.Index) []byte {
	var bundle []byte
	for i, ref := range p.obj.Spec.Validation.CACertificateRefs {
		at := fmt.Sprintf("spec.validation.caCertificateRefs[%d]", i)
		data, problem, kindProblem := index.CACertificates(string(ref.Group), string(ref.Kind), types.NamespacedName{Namespace: p.obj.Namespace, Name: string(ref.Name)})
		switch {
		case kindProblem:
			p.refProblem(string(gatewayv1.BackendTLSPolicyReasonInvalidKind), at+": "+problem)
			continue
		case problem != "":
			p.refProblem(string(gatewayv1.BackendTLSPolicyReasonInvalidCACertificateRef), at+": "+problem)
			continue
		}
		bundle = append(bundle, data...)
	}
	return bundle
}

func (p *policy) refProblem(reason, problem string) {
	if p.refReason == "" {
		p.refReason = reason
	}
	p.refProblems = append(p.refProblems, problem)
}
