package upstreamcluster

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/dispatch/envoy"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

// ListenerName is the name of the Listener that serves the
// UpstreamClusters on a port: "upstreamcluster/port/<port>".
func ListenerName(port int32) string {
	return "upstreamcluster/port/" + strconv.Itoa(int(port))
}

// Prefix begins the name of every resource of an UpstreamCluster.
const Prefix = "upstreamcluster/"

// apiVersion is the apiVersion of UpstreamCluster status.
var apiVersion = v1alpha1.GroupVersion.String()

// Translate translates ucs onto port, beside the HTTP/TLS
// gateway's resources gw, which it does not change. It returns the
// resources to add, the status of each UpstreamCluster, in name order, and
// the warnings of step 1; or, when ctx is done, which it looks at before
// each cluster, nothing.
func Translate(ctx context.Context, ucs []*v1alpha1.UpstreamCluster, port int32, gw *resources.Set, now time.Time) (*resources.Set, []graph.StatusUpdate, []string) {
	kept, warnings := dedupe(ucs)
	out := &resources.Set{}
	if len(kept) == 0 {
		return out, nil, warnings
	}
	listenerName := ListenerName(port)
	portInUse := portInUseMessage(gw, port)
	merged := &listenerv3.Listener{Name: listenerName}
	status := make([]graph.StatusUpdate, 0, len(kept))
	for _, uc := range kept {
		if ctx.Err() != nil {
			return &resources.Set{}, nil, nil
		}
		c := report.NewConditions(uc.Generation, metav1.NewTime(now))
		status = append(status, graph.StatusUpdate{
			APIVersion: apiVersion, Kind: v1alpha1.UpstreamClusterKind, Name: uc.Name,
			Generation: uc.Generation, Status: &v1alpha1.UpstreamClusterStatus{},
		})
		st := status[len(status)-1].Status.(*v1alpha1.UpstreamClusterStatus)

		_, warns, err := dispatch.Compile(uc.Spec.DispatchPolicies)
		if err != nil {
			c.Set(v1alpha1.ConditionAccepted, false, v1alpha1.ReasonInvalidDispatchPolicy, "The dispatch policies do not compile, so nothing of the UpstreamCluster is served: "+compileProblems(err))
			c.Set(v1alpha1.ConditionProgrammed, false, v1alpha1.ReasonInvalid, "The UpstreamCluster is not accepted; see Accepted.")
			st.Conditions = c.List
			continue
		}
		accepted := "The dispatch policies compile."
		if len(warns) > 0 {
			accepted = fmt.Sprintf("The dispatch policies compile, with %d %s: %s", len(warns), quote.Plural(len(warns), "warning", "warnings"), listed(warnStrings(warns)))
		}
		c.Set(v1alpha1.ConditionAccepted, true, v1alpha1.ReasonAccepted, accepted)

		reason, why := v1alpha1.ReasonInvalidCertificate, tlsProblem(uc)
		if why == "" {
			reason, why = v1alpha1.ReasonNoServers, serversProblem(uc)
		}
		if why == "" {
			reason, why = v1alpha1.ReasonPortInUse, portInUse
		}
		if why == "" {
			reason = ""
		}
		var set *resources.Set
		var notes []string
		if reason == "" {
			set, notes, err = envoy.Translate(uc, envoy.Options{Port: port})
			if err != nil || len(set.Listeners) != 1 { // Compile accepted the policies: a bug
				reason, why = dag.ReasonInternalError, fmt.Sprintf("Internal error: the Envoy translation failed (%v). This is a bug in Sesame; please report it with the input.", err)
			}
		}
		if reason != "" {
			c.Set(v1alpha1.ConditionProgrammed, false, reason, why+" Nothing of the UpstreamCluster is served.")
			st.Conditions = c.List
			continue
		}
		if note := hostnameNote(uc); note != "" {
			notes = append([]string{note}, notes...)
		}
		l := set.Listeners[0]
		merged.Address, merged.ListenerFilters = l.Address, l.ListenerFilters
		merged.FilterChains = append(merged.FilterChains, l.FilterChains...)
		out.Routes = append(out.Routes, set.Routes...)
		out.Clusters = append(out.Clusters, set.Clusters...)
		out.Endpoints = append(out.Endpoints, set.Endpoints...)
		out.Secrets = append(out.Secrets, set.Secrets...)
		programmed := fmt.Sprintf("Served on port %d by listener %s, filter chain %s for TLS server name %q.", port, listenerName, envoy.ListenerName(uc.Name), uc.Name)
		if len(notes) > 0 {
			programmed += " Notes: " + listed(notes)
		}
		c.Set(v1alpha1.ConditionProgrammed, true, v1alpha1.ReasonProgrammed, programmed)
		st.Conditions = c.List
	}
	if len(merged.FilterChains) > 0 {
		out.Listeners = []*listenerv3.Listener{merged}
	}
	return out, status, warnings
}

// dedupe returns ucs in name order, one per name: the
// oldest by creationTimestamp, then UID, then JSON encoding, so that the
// order ucs come in never matters. Each name given more than once earns a
// warning.
func dedupe(ucs []*v1alpha1.UpstreamCluster) ([]*v1alpha1.UpstreamCluster, []string) {
	sorted := slices.DeleteFunc(slices.Clone(ucs), func(uc *v1alpha1.UpstreamCluster) bool { return uc == nil })
	slices.SortFunc(sorted, func(a, b *v1alpha1.UpstreamCluster) int {
		if c := cmp.Or(strings.Compare(a.Name, b.Name), a.CreationTimestamp.Time.Compare(b.CreationTimestamp.Time), strings.Compare(string(a.UID), string(b.UID))); c != 0 {
			return c
		}
		ja, _ := json.Marshal(a) // the types always encode
		jb, _ := json.Marshal(b)
		return bytes.Compare(ja, jb)
	})
	var kept []*v1alpha1.UpstreamCluster
	var warnings []string
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].Name == sorted[i].Name {
			j++
		}
		uc := sorted[i]
		kept = append(kept, uc)
		if j-i > 1 {
			warnings = append(warnings, fmt.Sprintf("UpstreamCluster %s is given %d times; the oldest (creationTimestamp %s, uid %q) is translated and the others are ignored",
				uc.Name, j-i, uc.CreationTimestamp.UTC().Format(time.RFC3339), uc.UID))
		}
		i = j
	}
	return kept, warnings
}

// compileProblems lists the errors of dispatch.Compile, each at its path
// in the object (spec.dispatchPolicies[i]...).
func compileProblems(err error) string {
	var lines []string
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			lines = append(lines, objectPath(e.Error()))
		}
	} else {
		lines = []string{objectPath(err.Error())}
	}
	return listed(lines)
}

func warnStrings(warns []dispatch.Warning) []string {
	out := make([]string, len(warns))
	for i, w := range warns {
		out[i] = objectPath(w.String())
	}
	return out
}

// objectPath turns dispatch's paths, "policies[2].rules[0]...", into the
// object's, "spec.dispatchPolicies[2].rules[0]...".
func objectPath(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "policies"); ok {
		return "spec.dispatchPolicies" + rest
	}
	return msg
}

// listed joins items as "(1) a; (2) b.", at most graph.MaxSubConditions of
// them, the last saying how many more there were.
func listed(items []string) string {
	var b strings.Builder
	for i, s := range items {
		if i == graph.MaxSubConditions {
			fmt.Fprintf(&b, "; and %d more", len(items)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "(%d) %s", i+1, strings.TrimSuffix(s, "."))
	}
	b.WriteString(".")
	return b.String()
}

// Of names the UpstreamCluster a resource of the UpstreamClusters' came
// from, read back from its name; all is true for their shared listener,
// and ok false for a resource not theirs.
func Of(kind, name string) (uc string, all, ok bool) {
	rest, ok := strings.CutPrefix(name, Prefix)
	if !ok {
		return "", false, false
	}
	if kind == "Listener" {
		return "", true, true
	}
	uc, _, _ = strings.Cut(rest, "/")
	return uc, false, true
}

// Resources are the resources of xds that serve the UpstreamClusters, by
// their names' prefix.
func Resources(xds *resources.Set) *resources.Set {
	return &resources.Set{
		Listeners: withPrefix(xds.Listeners, (*listenerv3.Listener).GetName),
		Routes:    withPrefix(xds.Routes, (*routev3.RouteConfiguration).GetName),
		Clusters:  withPrefix(xds.Clusters, (*clusterv3.Cluster).GetName),
		Endpoints: withPrefix(xds.Endpoints, (*endpointv3.ClusterLoadAssignment).GetClusterName),
		Secrets:   withPrefix(xds.Secrets, (*tlsv3.Secret).GetName),
	}
}

// withPrefix keeps the messages whose name starts with Prefix.
func withPrefix[T any](list []T, name func(T) string) []T {
	var out []T
	for _, m := range list {
		if strings.HasPrefix(name(m), Prefix) {
			out = append(out, m)
		}
	}
	return out
}
