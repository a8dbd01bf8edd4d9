package v1alpha1

import (
	"slices"

	"k8s.io/apimachinery/pkg/runtime"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/internal/deepcopy"
)

// Hand-written deep copies: every pointer and slice is copied, so that a
// copy shares no memory with its original (deepcopy_test.go checks this
// for every field, by reflection).

var (
	_ runtime.Object = (*ExtensionService)(nil)
	_ runtime.Object = (*ExtensionServiceList)(nil)
)

// DeepCopyInto copies e into out.
func (e *ExtensionService) DeepCopyInto(out *ExtensionService) {
	*out = *e
	e.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	e.Spec.DeepCopyInto(&out.Spec)
	out.Status.Conditions = deepcopy.Each(e.Status.Conditions, (*contourv1.DetailedCondition).DeepCopyInto)
}

// DeepCopy returns a copy of e that shares no memory with it.
func (e *ExtensionService) DeepCopy() *ExtensionService {
	if e == nil {
		return nil
	}
	out := new(ExtensionService)
	e.DeepCopyInto(out)
	return out
}

// DeepCopyObject is DeepCopy as a runtime.Object.
func (e *ExtensionService) DeepCopyObject() runtime.Object {
	if c := e.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies s into out.
func (s *ExtensionServiceSpec) DeepCopyInto(out *ExtensionServiceSpec) {
	*out = *s
	out.Services = slices.Clone(s.Services)
	out.UpstreamValidation = deepcopy.Ptr(s.UpstreamValidation, func(in, out *contourv1.UpstreamValidation) {
		*out = *in
		out.SubjectNames = slices.Clone(in.SubjectNames)
	})
	out.Protocol = deepcopy.Ptr(s.Protocol, func(in, out *string) { *out = *in })
	out.LoadBalancerPolicy = deepcopy.Ptr(s.LoadBalancerPolicy, (*contourv1.LoadBalancerPolicy).DeepCopyInto)
	out.TimeoutPolicy = deepcopy.Ptr(s.TimeoutPolicy, func(in, out *contourv1.TimeoutPolicy) { *out = *in })
	out.CircuitBreakerPolicy = deepcopy.Ptr(s.CircuitBreakerPolicy, func(in, out *CircuitBreakers) { *out = *in })
}

// DeepCopyInto copies l into out.
func (l *ExtensionServiceList) DeepCopyInto(out *ExtensionServiceList) {
	*out = *l
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = deepcopy.Each(l.Items, (*ExtensionService).DeepCopyInto)
}

// DeepCopy returns a copy of l that shares no memory with it.
func (l *ExtensionServiceList) DeepCopy() *ExtensionServiceList {
	if l == nil {
		return nil
	}
	out := new(ExtensionServiceList)
	l.DeepCopyInto(out)
	return out
}

// DeepCopyObject is DeepCopy as a runtime.Object.
func (l *ExtensionServiceList) DeepCopyObject() runtime.Object {
	if c := l.DeepCopy(); c != nil {
		return c
	}
	return nil
}
