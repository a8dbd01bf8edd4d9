// UpstreamClusters: the kube-apiserver gateway's objects, translated beside
// the HTTP/TLS gateway's by package internal/upstreamcluster, whose doc
// says how.

package sesame

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/upstreamcluster"
)

// DefaultUpstreamClusterPort is the port UpstreamClusters are served on
// when Options.UpstreamClusterPort is 0: HTTPS's, which kubeconfigs name
// when they give no port.
const DefaultUpstreamClusterPort = 443

// UpstreamClusterListenerName is the name of the Listener that serves the
// UpstreamClusters on a port: "upstreamcluster/port/<port>".
func UpstreamClusterListenerName(port int32) string {
	return upstreamcluster.ListenerName(port)
}

// reportUpstreamInternalError makes the Programmed condition of the
// UpstreamClusters a repaired resource came from (every one on the
// listener, for their listener) False, with message; it returns false when
// it finds none to tell.
func (r *Result) reportUpstreamInternalError(kind, name, message string) bool {
	uc, all, ok := upstreamcluster.Of(kind, name)
	if !ok {
		return false
	}
	told := false
	for _, u := range r.upstream {
		st := u.Status.(*v1alpha1.UpstreamClusterStatus)
		for i := range st.Conditions {
			c := &st.Conditions[i]
			if c.Type == v1alpha1.ConditionProgrammed && (all && c.Status == metav1.ConditionTrue || u.Name == uc) {
				c.Status, c.Reason, c.Message = metav1.ConditionFalse, dag.ReasonInternalError, quote.Cap(message, graph.MaxConditionMessage)
				told = true
			}
		}
	}
	return told
}
