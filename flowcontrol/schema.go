// Schemas: the surface syntax of a flow control method and its validation.
//
// A Schema is the API's FlowControlSchema itself (package
// apis/proxy/v1alpha1), so that an UpstreamCluster's schemas are given to
// New and Set as they are, and the schema has one definition. Its
// configuration is inlined, so the JSON an UpstreamCluster carries reads
//
//	{"name": "list-limit", "tokenBucket": {"qps": 10, "burst": 20}}
//
// Validation happens once, in New, Resize and Set.Update; a Limiter keeps
// only the numbers its decisions need, never the Schema.

package flowcontrol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// Schema is one named flow control method, the seed's FlowControlSchema.
// Exactly one of Exempt, MaxRequestsInflight and TokenBucket must be set;
// Name is how a DispatchPolicy's flowControlSchemaName refers to it, and
// matters only in a Set. The limits mean:
//
//   - ExemptSchema sets no limit: every request is admitted.
//   - MaxRequestsInflightSchema limits how many requests may be in flight
//     at once. Max 0 admits nothing; Max must not be negative.
//   - TokenBucketSchema limits requests to a smoothed rate of QPS per
//     second, with bursts of up to Burst. Burst 0 admits nothing; QPS 0
//     admits Burst requests and then nothing. Neither may be negative.
type Schema = v1alpha1.FlowControlSchema

// The methods of a Schema, as the API names them.
type (
	ExemptSchema              = v1alpha1.ExemptFlowControlSchema
	MaxRequestsInflightSchema = v1alpha1.MaxRequestsInflightFlowControlSchema
	TokenBucketSchema         = v1alpha1.TokenBucketFlowControlSchema
)

// Kind names a flow control method: the API's FlowControlSchemaType.
type Kind = v1alpha1.FlowControlSchemaType

// The kinds of flow control.
const (
	KindExempt              = v1alpha1.Exempt
	KindMaxRequestsInflight = v1alpha1.MaxRequestsInflight
	KindTokenBucket         = v1alpha1.TokenBucket
)

// KindOf returns the kind of the one method s sets, or "" if it sets none
// or more than one (where the API's Type says Unknown); Validate says
// which.
func KindOf(s Schema) Kind {
	if t := s.Type(); t != v1alpha1.Unknown {
		return t
	}
	return ""
}

// Validate reports whether s can become a Limiter: exactly one method is set
// and no number is negative. Its errors are *SchemaError values (joined with
// errors.Join when there are several) with Index -1.
func Validate(s Schema) error {
	return validate(s, -1)
}

func validate(s Schema, index int) error {
	bad := func(field, reason string) error {
		return &SchemaError{Index: index, Name: s.Name, Field: field, Reason: reason}
	}
	var set []string
	if s.Exempt != nil {
		set = append(set, "exempt")
	}
	if s.MaxRequestsInflight != nil {
		set = append(set, "maxRequestsInflight")
	}
	if s.TokenBucket != nil {
		set = append(set, "tokenBucket")
	}
	switch len(set) {
	case 0:
		return bad("", "sets no method; set one of exempt, maxRequestsInflight or tokenBucket")
	case 1:
	default:
		return bad("", "sets "+strings.Join(set, " and ")+"; only one method may be set")
	}
	var errs []error
	if m := s.MaxRequestsInflight; m != nil && m.Max < 0 {
		errs = append(errs, bad("maxRequestsInflight.max", negative(m.Max)))
	}
	if tb := s.TokenBucket; tb != nil {
		if tb.QPS < 0 {
			errs = append(errs, bad("tokenBucket.qps", negative(tb.QPS)))
		}
		if tb.Burst < 0 {
			errs = append(errs, bad("tokenBucket.burst", negative(tb.Burst)))
		}
	}
	return errors.Join(errs...)
}

func negative(v int32) string {
	return strconv.Itoa(int(v)) + " is negative"
}

// SchemaError says which schema is invalid, which field, and why.
type SchemaError struct {
	// Index is the schema's position in the list given to NewSet or
	// Set.Update, or -1 for a schema given on its own.
	Index int
	// Name is the schema's name, possibly "".
	Name string
	// Field is the JSON path of the offending field inside the schema,
	// such as "tokenBucket.qps", or "" when the schema as a whole is wrong.
	Field string
	// Reason says what is wrong.
	Reason string
}

// Error returns the error's text, for example
// `flowcontrol: schemas[2] "list": tokenBucket.qps: -1 is negative`.
func (e *SchemaError) Error() string {
	var b strings.Builder
	b.WriteString("flowcontrol: ")
	if e.Index >= 0 {
		fmt.Fprintf(&b, "schemas[%d]", e.Index)
		if e.Name != "" {
			fmt.Fprintf(&b, " %q", e.Name)
		}
	} else {
		fmt.Fprintf(&b, "schema %q", e.Name)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// New validates s and returns a Limiter for it: an *ExemptLimiter, an
// *InflightLimiter or a *TokenBucketLimiter. A token bucket starts full.
func New(s Schema) (Limiter, error) {
	if err := Validate(s); err != nil {
		return nil, err
	}
	return newLimiter(s), nil
}

// newLimiter returns a Limiter for a valid s.
func newLimiter(s Schema) Limiter {
	switch {
	case s.MaxRequestsInflight != nil:
		l := new(InflightLimiter)
		l.resize(s.MaxRequestsInflight.Max)
		return l
	case s.TokenBucket != nil:
		l := new(TokenBucketLimiter)
		l.resize(s.TokenBucket.QPS, s.TokenBucket.Burst)
		return l
	}
	return new(ExemptLimiter)
}
