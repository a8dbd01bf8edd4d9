package conformance

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/projectsesame/sesame/internal/envoysim"
)

// The suite's backends run its echo server (conformance/echo-basic):
//
//   - /status/NNN answers with that status;
//   - /retry/... fails the first succeedAfter requests of each uuid (query
//     parameters), with responseCode when given and otherwise by resetting
//     the connection, each failure after delayRetry, then echoes;
//   - every other path echoes: a JSON account of the request received
//     (path, Host, method, headers, and the namespace and name of its pod),
//     after delay when the query gives one.
//
// A request header X-Echo-Set-Header: "name:value,..." asks it to set those
// response headers. echoServers is that server, one per pod, run in place of
// the pods: it never sleeps, it says how long it would take (envoysim.Try).

// echoServers holds the per-pod state of the echo servers: the failures
// each /retry/ uuid has had on each pod.
type echoServers struct {
	mu       sync.Mutex
	attempts map[string]int // pod + "/" + uuid
}

func newEchoServers() *echoServers { return &echoServers{attempts: map[string]int{}} }

// echoAnswer is how one request to an echo server ends.
type echoAnswer struct {
	try     envoysim.Try
	headers map[string][]string
	echo    *roundtripper.CapturedRequest
}

// statusPath is the echo server's /status/NNN.
var statusPath = regexp.MustCompile(`^/status/(\d\d\d)$`)

// answer is the echo server of pod, listening on port, receiving req.
func (s *echoServers) answer(pod *corev1.Pod, port string, req envoysim.Request) echoAnswer {
	path, rawQuery, _ := strings.Cut(req.Path, "?")
	query, _ := url.ParseQuery(rawQuery)
	if m := statusPath.FindStringSubmatch(path); m != nil {
		code, _ := strconv.Atoi(m[1])
		return echoAnswer{try: envoysim.Try{Status: code}, headers: map[string][]string{}}
	}
	if strings.HasPrefix(path, "/retry/") {
		uuid := query.Get("uuid")
		succeedAfter, err := strconv.Atoi(query.Get("succeedAfter"))
		if uuid == "" || err != nil {
			return echoAnswer{try: envoysim.Try{Status: http.StatusBadRequest}, headers: map[string][]string{}}
		}
		key := pod.Namespace + "/" + pod.Name + "/" + uuid
		s.mu.Lock()
		failing := s.attempts[key] < succeedAfter
		if failing {
			s.attempts[key]++
		}
		s.mu.Unlock()
		if failing {
			t := envoysim.Try{Reset: true, Takes: duration(query.Get("delayRetry"))}
			if code, err := strconv.Atoi(query.Get("responseCode")); err == nil {
				t = envoysim.Try{Status: code, Takes: t.Takes}
			}
			return echoAnswer{try: t, headers: map[string][]string{}}
		}
	}
	received := http.Header{}
	for name, values := range req.Headers {
		if strings.EqualFold(name, "host") {
			continue
		}
		received[http.CanonicalHeaderKey(name)] = append(received[http.CanonicalHeaderKey(name)], values...)
	}
	headers := map[string][]string{}
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
	return echoAnswer{
		try:     envoysim.Try{Status: http.StatusOK, Takes: duration(query.Get("delay"))},
		headers: headers,
		echo: &roundtripper.CapturedRequest{
			Path:      req.Path,
			Host:      req.Authority,
			Method:    req.Method,
			Protocol:  "HTTP/1.1",
			Headers:   received,
			HTTPPort:  port,
			Namespace: pod.Namespace,
			Pod:       pod.Name,
		},
	}
}

// duration parses a delay; the echo server answers 500 for a bad one, which
// the suite never sends, so a bad one is no delay here.
func duration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0
	}
	return d
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
