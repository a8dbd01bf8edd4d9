package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// HTTPProxyStatus is the status of an HTTPProxy, in Contour's shape: a
// summary (CurrentStatus, Description) and a "Valid" condition whose errors
// and warnings say what is wrong.
type HTTPProxyStatus struct {
	// CurrentStatus is "valid", "invalid" or "orphaned".
	CurrentStatus string `json:"currentStatus,omitempty"`
	// Description says why, in a sentence.
	Description string `json:"description,omitempty"`
	// Conditions holds the Valid condition.
	Conditions []DetailedCondition `json:"conditions,omitempty"`
}

// The values of HTTPProxyStatus.CurrentStatus.
const (
	// StatusValid is the status of a proxy served as written.
	StatusValid = "valid"
	// StatusInvalid is the status of a proxy some of which cannot be
	// served; the errors of the Valid condition say what.
	StatusInvalid = "invalid"
	// StatusOrphaned is the status of a proxy without virtual host that no
	// valid root includes, so nothing of it is served.
	StatusOrphaned = "orphaned"
)

// DetailedCondition is a Kubernetes condition with sub-conditions: Errors
// make it False; Warnings do not.
type DetailedCondition struct {
	metav1.Condition `json:",inline"`
	// Errors are the problems that make the condition False.
	Errors []SubCondition `json:"errors,omitempty"`
	// Warnings are problems that do not.
	Warnings []SubCondition `json:"warnings,omitempty"`
}

// SubCondition is one error or warning of a DetailedCondition. Its Type is in
// abnormal-true polarity ("IncludeError": True).
type SubCondition struct {
	// Type names the kind of problem, such as IncludeError or RouteError.
	Type string `json:"type"`
	// Status is True while the problem is present.
	Status metav1.ConditionStatus `json:"status"`
	// Reason is a CamelCase identifier of the problem.
	Reason string `json:"reason"`
	// Message says what is wrong and where, for a person.
	Message string `json:"message"`
}

// ValidConditionType is the type of the one condition HTTPProxy status
// carries.
const ValidConditionType = "Valid"

// Types of SubCondition, as Contour names them.
const (
	// ConditionTypeIncludeError is about an include that cannot be followed.
	ConditionTypeIncludeError = "IncludeError"
	// ConditionTypeOrphanedError is about a proxy that no valid root reaches.
	ConditionTypeOrphanedError = "Orphaned"
	// ConditionTypePrefixReplaceError is about a pathRewritePolicy that cannot be applied.
	ConditionTypePrefixReplaceError = "PrefixReplaceError"
	// ConditionTypeRootNamespaceError is about a root outside the root namespaces.
	ConditionTypeRootNamespaceError = "RootNamespaceError"
	// ConditionTypeRouteError is about a route, or its conditions.
	ConditionTypeRouteError = "RouteError"
	// ConditionTypeServiceError is about a service of a route.
	ConditionTypeServiceError = "ServiceError"
	// ConditionTypeSpecError is about the spec as a whole, or an ignored field.
	ConditionTypeSpecError = "SpecError"
	// ConditionTypeTCPProxyIncludeError is about a tcpproxy include that cannot be followed.
	ConditionTypeTCPProxyIncludeError = "TCPProxyIncludeError"
	// ConditionTypeTCPProxyError is about a tcpproxy.
	ConditionTypeTCPProxyError = "TCPProxyError"
	// ConditionTypeTLSError is about TLS settings.
	ConditionTypeTLSError = "TLSError"
	// ConditionTypeVirtualHostError is about the virtual host: its fqdn, or a field of it.
	ConditionTypeVirtualHostError = "VirtualHostError"
	// ConditionTypeListenerError is about the port the virtual host would be served on.
	ConditionTypeListenerError = "ListenerError"
	// ConditionTypeAuthError is about authorization fields.
	ConditionTypeAuthError = "AuthError"
	// ConditionTypeCORSError is about the CORS policy.
	ConditionTypeCORSError = "CORSError"
	// ConditionTypeIPFilterError is about IP allow and deny lists.
	ConditionTypeIPFilterError = "IPFilterError"
	// ConditionTypeJWTVerificationError is about JWT verification.
	ConditionTypeJWTVerificationError = "JWTVerificationError"
)
