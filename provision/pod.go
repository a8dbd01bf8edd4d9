package provision

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// bootstrapFile is the bootstrap's key in the ConfigMap, and its file in
// the pod.
const bootstrapFile = "envoy.json"

// drainSeconds is how long a terminating pod keeps serving, failing its
// readiness, before Envoy stops: time for load balancers and endpoints to
// let it go.
const drainSeconds = 15

// podTemplate is the pod of a fleet: Envoy alone, hardened.
func podTemplate(meta metav1.ObjectMeta, serviceAccount, configMap string, envoy *v1alpha1.EnvoyConfig, ps []port, xdsTLS *v1alpha1.XDSTLS) corev1.PodTemplateSpec {
	meta = metav1.ObjectMeta{Labels: meta.Labels, Annotations: maps.Clone(meta.Annotations)}
	if len(envoy.PodAnnotations) > 0 {
		if meta.Annotations == nil {
			meta.Annotations = map[string]string{}
		}
		maps.Copy(meta.Annotations, envoy.PodAnnotations)
	}
	level := envoy.LogLevel
	if level == "" {
		level = "info"
	}
	image := envoy.Image
	if image == "" {
		image = DefaultImage
	}
	security := &corev1.SecurityContext{
		RunAsNonRoot:             ptr(true),
		RunAsUser:                ptr(int64(65532)),
		RunAsGroup:               ptr(int64(65532)),
		AllowPrivilegeEscalation: ptr(false),
		ReadOnlyRootFilesystem:   ptr(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		SeccompProfile:           &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
	container := corev1.Container{
		Name:  "envoy",
		Image: image,
		Args: []string{
			"--config-path", "/config/" + bootstrapFile,
			"--log-level", level,
			"--drain-time-s", "60",
		},
		ReadinessProbe: &corev1.Probe{
			ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromInt32(ReadyPort)}},
			PeriodSeconds: 3, FailureThreshold: 2,
		},
		Lifecycle:       &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: drainSeconds}}},
		Ports:           []corev1.ContainerPort{{Name: "ready", ContainerPort: ReadyPort, Protocol: corev1.ProtocolTCP}},
		VolumeMounts:    []corev1.VolumeMount{{Name: "bootstrap", MountPath: "/config", ReadOnly: true}},
		SecurityContext: security,
	}
	privileged := false
	for _, p := range ps {
		container.Ports = append(container.Ports, corev1.ContainerPort{Name: p.name, ContainerPort: p.bind, Protocol: corev1.ProtocolTCP})
		privileged = privileged || p.bind < 1024
	}
	if r := envoy.Resources; r != nil {
		container.Resources = *r.DeepCopy()
	} else {
		container.Resources = corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi"),
		}}
	}
	spec := corev1.PodSpec{
		ServiceAccountName:            serviceAccount,
		AutomountServiceAccountToken:  ptr(false),
		TerminationGracePeriodSeconds: ptr(int64(drainSeconds + 60)),
		SecurityContext:               &corev1.PodSecurityContext{RunAsNonRoot: ptr(true), SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
		Containers:                    []corev1.Container{container},
		Volumes: []corev1.Volume{{Name: "bootstrap", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: configMap},
		}}}},
	}
	if xdsTLS != nil {
		// The Secret's files are readable by the pod's group only.
		spec.SecurityContext.FSGroup = ptr(int64(65532))
		spec.Volumes = append(spec.Volumes, corev1.Volume{Name: "xds-tls", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
			SecretName: xdsTLS.SecretName, DefaultMode: ptr(int32(0o440)),
		}}})
		spec.Containers[0].VolumeMounts = append(spec.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "xds-tls", MountPath: xdsCertDir, ReadOnly: true})
	}
	if privileged {
		// A non-root process cannot use an added NET_BIND_SERVICE (the
		// kubelet gives no ambient capabilities); the namespaced sysctl,
		// safe since Kubernetes 1.22, lets it bind the ports below 1024.
		spec.SecurityContext.Sysctls = []corev1.Sysctl{{Name: "net.ipv4.ip_unprivileged_port_start", Value: "0"}}
	}
	if np := envoy.NodePlacement; np != nil {
		spec.NodeSelector = maps.Clone(np.NodeSelector)
		for _, t := range np.Tolerations {
			spec.Tolerations = append(spec.Tolerations, *t.DeepCopy())
		}
	}
	return corev1.PodTemplateSpec{ObjectMeta: meta, Spec: spec}
}
