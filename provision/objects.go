package provision

import (
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// DefaultImage is the Envoy image of a fleet whose configuration names
// none: the distroless build, which has no shell to exploit.
const DefaultImage = "docker.io/envoyproxy/envoy:distroless-v1.36.2"

// The ports of a fleet's pods besides the listeners'.
const (
	// ReadyPort serves Envoy's /ready to the kubelet (bootstrap.go).
	ReadyPort = 8002
	// AdminPort is Envoy's admin interface, on loopback only.
	AdminPort = 9001
)

// Labels of a fleet's objects, besides the Gateway's infrastructure
// labels: the first three select the pods.
const (
	LabelGatewayName      = "gateway.networking.k8s.io/gateway-name"
	LabelGatewayNamespace = "projectsesame.io/gateway-namespace"
	labelApp              = "app.kubernetes.io/name"
	labelManagedBy        = "app.kubernetes.io/managed-by"
)

// objects are the desired objects of a Gateway's fleet.
func objects(g Gateway, envoy *v1alpha1.EnvoyConfig, xds v1alpha1.XDSServer, opts Options) []runtime.Object {
	gw := g.Gateway
	name := types.NamespacedName{Namespace: gw.Namespace, Name: gw.Name}
	ps := ports(g, opts.BindPorts)
	meta := func(suffix string) metav1.ObjectMeta {
		m := metav1.ObjectMeta{Name: fleetName(name, suffix), Namespace: gw.Namespace, Labels: labels(gw), Annotations: annotations(gw)}
		if envoy.Namespace != "" {
			m.Namespace = envoy.Namespace
		} else if gw.UID != "" {
			m.OwnerReferences = []metav1.OwnerReference{{
				APIVersion: gatewayv1.GroupVersion.String(), Kind: "Gateway", Name: gw.Name, UID: gw.UID, Controller: ptr(true), BlockOwnerDeletion: ptr(true),
			}}
		}
		return m
	}
	sa := &corev1.ServiceAccount{TypeMeta: typeMeta("v1", "ServiceAccount"), ObjectMeta: meta(""), AutomountServiceAccountToken: ptr(false)}
	cm := &corev1.ConfigMap{TypeMeta: typeMeta("v1", "ConfigMap"), ObjectMeta: meta("-bootstrap"), Data: xdsFilesJSON(xds)}
	cm.Data[bootstrapFile] = bootstrapJSON(name, xds, envoy)
	pod := podTemplate(meta(""), sa.Name, cm.Name, envoy, ps, xds.TLS)
	var workload runtime.Object
	if envoy.WorkloadType == v1alpha1.Deployment {
		replicas := int32(2)
		if envoy.Replicas != nil {
			replicas = *envoy.Replicas
		}
		workload = &appsv1.Deployment{TypeMeta: typeMeta("apps/v1", "Deployment"), ObjectMeta: meta(""), Spec: appsv1.DeploymentSpec{
			Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: selector(gw)}, Template: pod,
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{
				MaxUnavailable: ptr(intstr.FromInt32(0)), MaxSurge: ptr(intstr.FromString("25%")),
			}},
		}}
	} else {
		workload = &appsv1.DaemonSet{TypeMeta: typeMeta("apps/v1", "DaemonSet"), ObjectMeta: meta(""), Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: selector(gw)}, Template: pod,
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: &appsv1.RollingUpdateDaemonSet{
				MaxUnavailable: ptr(intstr.FromString("10%")),
			}},
		}}
	}
	svc := service(meta(""), gw, envoy.NetworkPublishing, ps)
	out := []runtime.Object{sa, cm, workload, svc}
	if np := envoy.NetworkPublishing; np != nil && np.Type == v1alpha1.GatewayAPI {
		out = append(out, exposure(svc, np.GatewayClassName, CheckAddresses(gw, envoy).Requested)...)
	}
	return out
}

func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

// selector are the labels that select a fleet's pods.
func selector(gw *gatewayv1.Gateway) map[string]string {
	return map[string]string{labelApp: "envoy", LabelGatewayName: gw.Name, LabelGatewayNamespace: gw.Namespace}
}

// labels are a fleet object's: the Gateway's infrastructure labels, then
// the selector and managed-by, which win.
func labels(gw *gatewayv1.Gateway) map[string]string {
	out := map[string]string{}
	if inf := gw.Spec.Infrastructure; inf != nil {
		for k, v := range inf.Labels {
			out[string(k)] = string(v)
		}
	}
	maps.Copy(out, selector(gw))
	out[labelManagedBy] = "sesame"
	return out
}

// annotations are the Gateway's infrastructure annotations, or nil.
func annotations(gw *gatewayv1.Gateway) map[string]string {
	inf := gw.Spec.Infrastructure
	if inf == nil || len(inf.Annotations) == 0 {
		return nil
	}
	out := make(map[string]string, len(inf.Annotations))
	for k, v := range inf.Annotations {
		out[string(k)] = string(v)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
