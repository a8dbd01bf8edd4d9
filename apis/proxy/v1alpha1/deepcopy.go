package v1alpha1

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame/internal/deepcopy"
)

// Hand-written deep copies: every pointer, slice and byte buffer is copied,
// so that a copy shares no memory with its original (deepcopy_test.go checks
// this for every field, by reflection, IgnoredUpsteamSubset included though
// it is never encoded). Plain values are copied by the struct assignment
// that starts each DeepCopyInto.

var (
	_ runtime.Object = (*UpstreamCluster)(nil)
	_ runtime.Object = (*UpstreamClusterList)(nil)
)

// DeepCopyInto copies u into out.
func (u *UpstreamCluster) DeepCopyInto(out *UpstreamCluster) {
	*out = *u
	out.TypeMeta = u.TypeMeta
	u.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	u.Spec.DeepCopyInto(&out.Spec)
	u.Status.DeepCopyInto(&out.Status)
}

// DeepCopy returns a copy of u that shares no memory with it.
func (u *UpstreamCluster) DeepCopy() *UpstreamCluster {
	if u == nil {
		return nil
	}
	out := new(UpstreamCluster)
	u.DeepCopyInto(out)
	return out
}

// DeepCopyObject is DeepCopy as a runtime.Object.
func (u *UpstreamCluster) DeepCopyObject() runtime.Object {
	if c := u.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies l into out.
func (l *UpstreamClusterList) DeepCopyInto(out *UpstreamClusterList) {
	*out = *l
	out.TypeMeta = l.TypeMeta
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepcopy.Each(l.Items, (*UpstreamCluster).DeepCopyInto)
}

// DeepCopy returns a copy of l that shares no memory with it.
func (l *UpstreamClusterList) DeepCopy() *UpstreamClusterList {
	if l == nil {
		return nil
	}
	out := new(UpstreamClusterList)
	l.DeepCopyInto(out)
	return out
}

// DeepCopyObject is DeepCopy as a runtime.Object.
func (l *UpstreamClusterList) DeepCopyObject() runtime.Object {
	if c := l.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies s into out.
func (s *UpstreamClusterSpec) DeepCopyInto(out *UpstreamClusterSpec) {
	*out = *s
	out.Servers = deepcopy.Each(s.Servers, (*UpstreamClusterServer).DeepCopyInto)
	s.ClientConfig.DeepCopyInto(&out.ClientConfig)
	s.SecureServing.DeepCopyInto(&out.SecureServing)
	s.FlowControl.DeepCopyInto(&out.FlowControl)
	out.DispatchPolicies = deepcopy.Each(s.DispatchPolicies, (*DispatchPolicy).DeepCopyInto)
}

// DeepCopyInto copies s into out.
func (s *UpstreamClusterServer) DeepCopyInto(out *UpstreamClusterServer) {
	*out = *s
	out.Disabled = deepcopy.Ptr(s.Disabled, func(in, out *bool) { *out = *in })
}

// DeepCopyInto copies c into out.
func (c *ClientConfig) DeepCopyInto(out *ClientConfig) {
	*out = *c
	out.BearerToken = slices.Clone(c.BearerToken)
	out.KeyData = slices.Clone(c.KeyData)
	out.CertData = slices.Clone(c.CertData)
	out.CAData = slices.Clone(c.CAData)
}

// DeepCopyInto copies s into out.
func (s *SecureServing) DeepCopyInto(out *SecureServing) {
	*out = *s
	out.KeyData = slices.Clone(s.KeyData)
	out.CertData = slices.Clone(s.CertData)
	out.ClientCAData = slices.Clone(s.ClientCAData)
}

// DeepCopyInto copies f into out.
func (f *FlowControl) DeepCopyInto(out *FlowControl) {
	*out = *f
	out.Schemas = deepcopy.Each(f.Schemas, (*FlowControlSchema).DeepCopyInto)
}

// DeepCopyInto copies s into out.
func (s *FlowControlSchema) DeepCopyInto(out *FlowControlSchema) {
	*out = *s
	s.FlowControlSchemaConfiguration.DeepCopyInto(&out.FlowControlSchemaConfiguration)
}

// DeepCopyInto copies c into out.
func (c *FlowControlSchemaConfiguration) DeepCopyInto(out *FlowControlSchemaConfiguration) {
	*out = *c
	out.Exempt = deepcopy.Ptr(c.Exempt, func(in, out *ExemptFlowControlSchema) { *out = *in })
	out.MaxRequestsInflight = deepcopy.Ptr(c.MaxRequestsInflight, func(in, out *MaxRequestsInflightFlowControlSchema) { *out = *in })
	out.TokenBucket = deepcopy.Ptr(c.TokenBucket, func(in, out *TokenBucketFlowControlSchema) { *out = *in })
}

// DeepCopyInto copies p into out, IgnoredUpsteamSubset included.
func (p *DispatchPolicy) DeepCopyInto(out *DispatchPolicy) {
	*out = *p
	out.UpstreamSubset = slices.Clone(p.UpstreamSubset)
	out.IgnoredUpsteamSubset = slices.Clone(p.IgnoredUpsteamSubset)
	out.Rules = deepcopy.Each(p.Rules, (*DispatchPolicyRule).DeepCopyInto)
}

// DeepCopyInto copies r into out.
func (r *DispatchPolicyRule) DeepCopyInto(out *DispatchPolicyRule) {
	*out = *r
	out.Verbs = slices.Clone(r.Verbs)
	out.APIGroups = slices.Clone(r.APIGroups)
	out.Resources = slices.Clone(r.Resources)
	out.ResourceNames = slices.Clone(r.ResourceNames)
	out.Users = slices.Clone(r.Users)
	out.ServiceAccounts = slices.Clone(r.ServiceAccounts)
	out.UserGroups = slices.Clone(r.UserGroups)
	out.NonResourceURLs = slices.Clone(r.NonResourceURLs)
}

// DeepCopyInto copies s into out.
func (s *UpstreamClusterStatus) DeepCopyInto(out *UpstreamClusterStatus) {
	*out = *s
	out.Conditions = deepcopy.Each(s.Conditions, (*metav1.Condition).DeepCopyInto)
}
