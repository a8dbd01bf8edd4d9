package conformance

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Clientset is a client-go clientset over the cluster's store, for the
// suite's tests that list core objects through one
// (GatewayInfrastructureMetadata lists a fleet's ServiceAccounts, Pods and
// Services by label). It answers lists of those kinds and refuses
// everything else, so that a test asking more fails rather than reading
// an empty fake.
func (c *Cluster) Clientset() kubernetes.Interface {
	cs := k8sfake.NewClientset()
	cs.PrependReactor("*", "*", func(action k8stesting.Action) (bool, runtime.Object, error) {
		res := action.GetResource().Resource
		list, ok := action.(k8stesting.ListAction)
		if !ok {
			return true, nil, fmt.Errorf("the offline cluster's clientset answers lists only, not %s of %s", action.GetVerb(), res)
		}
		var out client.ObjectList
		switch res {
		case "serviceaccounts":
			out = &corev1.ServiceAccountList{}
		case "pods":
			out = &corev1.PodList{}
		case "services":
			out = &corev1.ServiceList{}
		default:
			return true, nil, fmt.Errorf("the offline cluster's clientset does not list %s", res)
		}
		opts := []client.ListOption{client.MatchingLabelsSelector{Selector: list.GetListRestrictions().Labels}}
		if ns := action.GetNamespace(); ns != "" {
			opts = append(opts, client.InNamespace(ns))
		}
		return true, out, c.List(context.Background(), out, opts...)
	})
	return cs
}
