package v1alpha1

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame/internal/deepcopy"
)

// Hand-written deep copies: every pointer, slice and map is copied, so
// that a copy shares no memory with its original (deepcopy_test.go checks
// this for every field, by reflection).

var (
	_ runtime.Object = (*SesameConfiguration)(nil)
	_ runtime.Object = (*SesameConfigurationList)(nil)
)

// DeepCopyInto copies c into out.
func (c *SesameConfiguration) DeepCopyInto(out *SesameConfiguration) {
	*out = *c
	c.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	c.Spec.DeepCopyInto(&out.Spec)
	out.Status.Conditions = deepcopy.Each(c.Status.Conditions, (*metav1.Condition).DeepCopyInto)
}

// DeepCopy returns a copy of c that shares no memory with it.
func (c *SesameConfiguration) DeepCopy() *SesameConfiguration {
	if c == nil {
		return nil
	}
	out := new(SesameConfiguration)
	c.DeepCopyInto(out)
	return out
}

// DeepCopyObject is DeepCopy as a runtime.Object.
func (c *SesameConfiguration) DeepCopyObject() runtime.Object {
	if d := c.DeepCopy(); d != nil {
		return d
	}
	return nil
}

// DeepCopyInto copies s into out.
func (s *SesameConfigurationSpec) DeepCopyInto(out *SesameConfigurationSpec) {
	*out = *s
	out.Gateway = deepcopy.Ptr(s.Gateway, func(in, out *GatewayConfig) { *out = *in })
	out.XDSServer = deepcopy.Ptr(s.XDSServer, func(in, out *XDSServer) {
		*out = *in
		out.TLS = deepcopy.Ptr(in.TLS, func(in, out *XDSTLS) { *out = *in })
	})
	out.Envoy = deepcopy.Ptr(s.Envoy, (*EnvoyConfig).DeepCopyInto)
}

// DeepCopyInto copies e into out.
func (e *EnvoyConfig) DeepCopyInto(out *EnvoyConfig) {
	*out = *e
	out.Replicas = deepcopy.Ptr(e.Replicas, func(in, out *int32) { *out = *in })
	out.Resources = deepcopy.Ptr(e.Resources, (*corev1.ResourceRequirements).DeepCopyInto)
	out.NodePlacement = deepcopy.Ptr(e.NodePlacement, func(in, out *NodePlacement) {
		out.NodeSelector = maps.Clone(in.NodeSelector)
		out.Tolerations = deepcopy.Each(in.Tolerations, (*corev1.Toleration).DeepCopyInto)
	})
	out.PodAnnotations = maps.Clone(e.PodAnnotations)
	out.NetworkPublishing = deepcopy.Ptr(e.NetworkPublishing, func(in, out *NetworkPublishing) {
		*out = *in
		out.NodePorts = slices.Clone(in.NodePorts)
		out.ProviderParameters = deepcopy.Ptr(in.ProviderParameters, func(in, out *ProviderParameters) {
			*out = *in
			out.AWS = deepcopy.Ptr(in.AWS, func(in, out *AWSParameters) { *out = *in })
			out.Azure = deepcopy.Ptr(in.Azure, func(in, out *AzureParameters) { *out = *in })
			out.GCP = deepcopy.Ptr(in.GCP, func(in, out *GCPParameters) { *out = *in })
		})
	})
}

// DeepCopyInto copies l into out.
func (l *SesameConfigurationList) DeepCopyInto(out *SesameConfigurationList) {
	*out = *l
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepcopy.Each(l.Items, (*SesameConfiguration).DeepCopyInto)
}

// DeepCopy returns a copy of l that shares no memory with it.
func (l *SesameConfigurationList) DeepCopy() *SesameConfigurationList {
	if l == nil {
		return nil
	}
	out := new(SesameConfigurationList)
	l.DeepCopyInto(out)
	return out
}

// DeepCopyObject is DeepCopy as a runtime.Object.
func (l *SesameConfigurationList) DeepCopyObject() runtime.Object {
	if d := l.DeepCopy(); d != nil {
		return d
	}
	return nil
}

// DeepCopy returns a copy of e that shares no memory with it.
func (e *EnvoyConfig) DeepCopy() *EnvoyConfig {
	if e == nil {
		return nil
	}
	out := new(EnvoyConfig)
	e.DeepCopyInto(out)
	return out
}
