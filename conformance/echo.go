package conformance

import (
	"context"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/projectsesame/sesame/internal/envoysim"
)

// The suite's backends run its echo server (conformance/echo-basic), which
// answers /status/NNN with that status, and every other path with a JSON
// account of the request it received: path, Host, method, headers, and the
// namespace and name of its pod. A request header X-Echo-Set-Header:
// "name:value,..." asks it to set those response headers. answer is that
// server, run in place of the pod.

// statusPath is the echo server's /status/NNN.
var statusPath = regexp.MustCompile(`^/status/(\d\d\d)$`)

// answer is the echo server of pod, listening on port, receiving req.
func answer(pod *corev1.Pod, port string, req envoysim.Request) (status int, headers map[string][]string, echo *roundtripper.CapturedRequest) {
	if m := statusPath.FindStringSubmatch(req.Path); m != nil {
		code, _ := strconv.Atoi(m[1])
		return code, map[string][]string{}, nil
	}
	received := http.Header{}
	for name, values := range req.Headers {
		if strings.EqualFold(name, "host") {
			continue
		}
		received[http.CanonicalHeaderKey(name)] = append(received[http.CanonicalHeaderKey(name)], values...)
	}
	headers = map[string][]string{}
	for _, list := range received["X-Echo-Set-Header"] {
		for kv := range strings.SplitSeq(list, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(kv), ":")
			if len(headers[name]) == 0 {
				headers[name] = []string{value}
			} else {
				headers[name][0] += "," + strings.TrimSpace(value)
			}
		}
	}
	headers["Content-Type"] = []string{"application/json"}
	headers["X-Content-Type-Options"] = []string{"nosniff"}
	return http.StatusOK, headers, &roundtripper.CapturedRequest{
		Path:      req.Path,
		Host:      req.Authority,
		Method:    req.Method,
		Protocol:  "HTTP/1.1",
		Headers:   received,
		HTTPPort:  port,
		Namespace: pod.Namespace,
		Pod:       pod.Name,
	}
}

// pod returns the pod with address ip, or nil.
func (c *Cluster) pod(ip netip.Addr) *corev1.Pod {
	var pods corev1.PodList
	if err := c.WithWatch.List(context.Background(), &pods); err != nil {
		return nil
	}
	for i := range pods.Items {
		if pods.Items[i].Status.PodIP == ip.String() {
			return &pods.Items[i]
		}
	}
	return nil
}
