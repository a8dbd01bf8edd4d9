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
	// StatusValid: the proxy is served as written.
	StatusValid = "valid"
	// StatusInvalid: some of the proxy cannot be served; the errors of the
	// Valid condition say what.
	StatusInvalid = "invalid"
	// StatusOrphaned: the proxy has no virtual host and no valid root
	// includes it, so nothing of it is served.
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
	ConditionTypeIncludeError         = "IncludeError"
	ConditionTypeOrphanedError        = "Orphaned"
	ConditionTypePrefixReplaceError   = "PrefixReplaceError"
	ConditionTypeRootNamespaceError   = "RootNamespaceError"
	ConditionTypeRouteError           = "RouteError"
	ConditionTypeServiceError         = "ServiceError"
	ConditionTypeSpecError            = "SpecError"
	ConditionTypeTCPProxyIncludeError = "TCPProxyIncludeError"
	ConditionTypeTCPProxyError        = "TCPProxyError"
	ConditionTypeTLSError             = "TLSError"
	ConditionTypeVirtualHostError     = "VirtualHostError"
	ConditionTypeListenerError        = "ListenerError"
	ConditionTypeAuthError            = "AuthError"
	ConditionTypeCORSError            = "CORSError"
	ConditionTypeIPFilterError        = "IPFilterError"
	ConditionTypeJWTVerificationError = "JWTVerificationError"
)
