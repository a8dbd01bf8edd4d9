// Flow control schemas: the named limits a dispatch policy can put on the
// requests it matches.
//
// Seed 002 names three kinds of flow control: Exempt (no limit),
// MaxRequestsInflight (at most N requests at once, whatever their rate) and
// TokenBucket (a rate with bursts). A schema is a name plus exactly one of
// the three, written as a member object; the member that is set is the
// schema's type. A worked example:
//
//	flowControl:
//	  flowControlSchemas:
//	  - name: free
//	    exempt: {}                       # Type() == Exempt
//	  - name: heavy-lists
//	    maxRequestsInflight: {max: 50}   # Type() == MaxRequestsInflight
//	  - name: polite
//	    tokenBucket: {qps: 10, burst: 20} # Type() == TokenBucket
//	  - name: broken
//	    exempt: {}
//	    tokenBucket: {qps: 1}            # two members: Type() == Unknown
//
// A dispatch policy names one of them in flowControlSchemaName; a policy
// without one is not limited.

package v1alpha1

// FlowControl holds an UpstreamCluster's flow control schemas.
type FlowControl struct {
	// Schemas are the named schemas; DispatchPolicy.FlowControlSchemaName
	// refers to them by name.
	Schemas []FlowControlSchema `json:"flowControlSchemas,omitempty"`
}

// FlowControlSchema is one named limit: a name and exactly one of the
// members of FlowControlSchemaConfiguration.
type FlowControlSchema struct {
	// Name is what dispatch policies refer to the schema by.
	Name string `json:"name,omitempty"`

	// FlowControlSchemaConfiguration is the limit itself; its members
	// appear beside "name" in JSON.
	FlowControlSchemaConfiguration `json:",inline"`
}

// FlowControlSchemaConfiguration is a flow control limit. Exactly one member
// should be set; Type says which one is.
type FlowControlSchemaConfiguration struct {
	// Exempt means no limit.
	// +optional
	Exempt *ExemptFlowControlSchema `json:"exempt,omitempty"`

	// MaxRequestsInflight limits how many requests are in flight at once.
	// +optional
	MaxRequestsInflight *MaxRequestsInflightFlowControlSchema `json:"maxRequestsInflight,omitempty"`

	// TokenBucket limits the rate of requests and allows bursts above it.
	// +optional
	TokenBucket *TokenBucketFlowControlSchema `json:"tokenBucket,omitempty"`
}

// FlowControlSchemaType names the kind of a flow control schema.
type FlowControlSchemaType string

// The kinds of flow control schema. Unknown is the type of a configuration
// with no member, or with more than one, set.
const (
	Unknown             FlowControlSchemaType = "Unknown"
	Exempt              FlowControlSchemaType = "Exempt"
	MaxRequestsInflight FlowControlSchemaType = "MaxRequestsInflight"
	TokenBucket         FlowControlSchemaType = "TokenBucket"
)

// Type returns the kind of the configuration: the member that is set, or
// Unknown if none or more than one is.
func (c *FlowControlSchemaConfiguration) Type() FlowControlSchemaType {
	t, n := Unknown, 0
	if c.Exempt != nil {
		t, n = Exempt, n+1
	}
	if c.MaxRequestsInflight != nil {
		t, n = MaxRequestsInflight, n+1
	}
	if c.TokenBucket != nil {
		t, n = TokenBucket, n+1
	}
	if n != 1 {
		return Unknown
	}
	return t
}

// ExemptFlowControlSchema means no limit. It has no fields.
type ExemptFlowControlSchema struct{}

// MaxRequestsInflightFlowControlSchema limits the number of requests in
// flight at any moment.
type MaxRequestsInflightFlowControlSchema struct {
	// Max is the most requests that may be in flight at once.
	Max int32 `json:"max,omitempty"`
}

// TokenBucketFlowControlSchema is a token bucket: tokens accrue at QPS per
// second up to Burst, and each request takes one.
type TokenBucketFlowControlSchema struct {
	// QPS is the sustained rate, in requests per second; it must not be
	// zero.
	QPS int32 `json:"qps,omitempty"`

	// Burst is the size of the bucket, the most requests allowed at once
	// after a quiet period; it should be at least QPS.
	// +optional
	Burst int32 `json:"burst,omitempty"`
}
