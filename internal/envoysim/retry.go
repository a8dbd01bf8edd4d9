// Tries, retries and timeouts: what Envoy's router does once a route
// forwards a request, given what each try at the upstream would do.
//
// The route's retry_policy (or, when it has none, its virtual host's)
// decides. num_retries defaults to 1 when a policy is set, and there are no
// retries without one. A try that ends with a response is retried when
// retry_on allows that response: "5xx" any 5xx status, "gateway-error" 502,
// 503 and 504, "retriable-status-codes" the policy's retriable_status_codes.
// A try that ends without one, because the connection was reset or refused
// or the try ran past per_try_timeout, is retried under "5xx", "reset" and
// "connect-failure" (a refused connection), and under "gateway-error" for a
// per-try timeout. Each try takes its time; when the tries together pass
// the route's timeout (15 s when unset, none when 0) the request ends with
// 504 whatever was still to come. When no try is left, a response is
// passed on as it came; a reset or refused connection becomes 503 and a
// per-try timeout 504, as Envoy's router answers them.
//
// Outside the model: the back-off between tries (it adds no time here),
// retry budgets and host selection predicates, and retry_on conditions
// about HTTP/2 streams, headers and response bodies.

package envoysim

import (
	"slices"
	"strings"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// Try is how one try at the upstream ends.
type Try struct {
	// Status is the upstream's response status; 0 when there is none.
	Status int
	// Reset is set when the connection was reset or refused before a
	// response (Refused tells which).
	Reset, Refused bool
	// Takes is how long the upstream takes to answer (or to fail).
	Takes time.Duration
}

// Outcome is how a forwarded request ends.
type Outcome struct {
	// Status is what the client receives.
	Status int
	// Tries is how many tries were made; Answered is the one whose
	// response the client receives (0-based), -1 when Envoy answered
	// itself (a timeout or a failed connection).
	Tries, Answered int
	// TimedOut is set when a timeout ended the request.
	TimedOut bool
}

// DefaultRouteTimeout is Envoy's RouteAction.timeout when unset.
const DefaultRouteTimeout = 15 * time.Second

// Forward runs the tries of a request res forwards: try(n) says how try n
// (0-based) would end. try is called once per try made, in order.
func Forward(res Result, try func(n int) Try) Outcome {
	action := res.RouteAction
	total := DefaultRouteTimeout
	if t := action.GetTimeout(); t != nil {
		total = t.AsDuration() // 0 disables it
	}
	policy := action.GetRetryPolicy()
	if policy == nil {
		policy = res.VirtualHostProto.GetRetryPolicy()
	}
	retries := 0
	if policy != nil {
		retries = 1
		if n := policy.GetNumRetries(); n != nil {
			retries = int(n.GetValue())
		}
	}
	perTry := policy.GetPerTryTimeout().AsDuration()
	var elapsed time.Duration
	for n := 0; ; n++ {
		t := try(n)
		timedOut := perTry > 0 && t.Takes > perTry
		took := t.Takes
		if timedOut {
			took = perTry
		}
		if total > 0 && elapsed+took > total {
			return Outcome{Status: 504, Tries: n + 1, Answered: -1, TimedOut: true}
		}
		elapsed += took
		var out Outcome
		switch {
		case timedOut:
			out = Outcome{Status: 504, Tries: n + 1, Answered: -1, TimedOut: true}
		case t.Reset:
			out = Outcome{Status: 503, Tries: n + 1, Answered: -1}
		default:
			out = Outcome{Status: t.Status, Tries: n + 1, Answered: n}
		}
		if n >= retries || !retriable(policy, t, timedOut) {
			return out
		}
	}
}

// retriable reports whether policy retries a try that ended as t.
func retriable(policy *routev3.RetryPolicy, t Try, timedOut bool) bool {
	for on := range strings.SplitSeq(policy.GetRetryOn(), ",") {
		switch strings.TrimSpace(on) {
		case "5xx":
			if timedOut || t.Reset || t.Status >= 500 {
				return true
			}
		case "gateway-error":
			if timedOut || !t.Reset && (t.Status == 502 || t.Status == 503 || t.Status == 504) {
				return true
			}
		case "reset":
			if timedOut || t.Reset {
				return true
			}
		case "connect-failure":
			if t.Refused {
				return true
			}
		case "retriable-status-codes":
			if !timedOut && !t.Reset && slices.Contains(policy.GetRetriableStatusCodes(), uint32(t.Status)) {
				return true
			}
		}
	}
	return false
}
