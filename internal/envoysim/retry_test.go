package envoysim

import (
	"testing"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func TestForward(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	fail := func(status, times int) func(int) Try { // fails times tries, then 200
		return func(n int) Try {
			if n < times {
				return Try{Status: status}
			}
			return Try{Status: 200}
		}
	}
	reset := func(refused bool, times int) func(int) Try {
		return func(n int) Try {
			if n < times {
				return Try{Reset: true, Refused: refused}
			}
			return Try{Status: 200}
		}
	}
	slow := func(takes ...time.Duration) func(int) Try {
		return func(n int) Try { return Try{Status: 200, Takes: takes[min(n, len(takes)-1)]} }
	}
	codes := func(retries uint32, c ...uint32) *routev3.RetryPolicy {
		return &routev3.RetryPolicy{RetryOn: "retriable-status-codes", NumRetries: wrapperspb.UInt32(retries), RetriableStatusCodes: c}
	}
	for _, tt := range []struct {
		name   string
		action *routev3.RouteAction
		vhost  *routev3.RetryPolicy
		try    func(int) Try
		want   Outcome
	}{
		{name: "no policy: one try", action: &routev3.RouteAction{}, try: fail(500, 1), want: Outcome{Status: 500, Tries: 1}},
		{name: "retriable code, recovers", action: &routev3.RouteAction{RetryPolicy: codes(2, 500)}, try: fail(500, 2), want: Outcome{Status: 200, Tries: 3, Answered: 2}},
		{name: "retriable code, out of tries", action: &routev3.RouteAction{RetryPolicy: codes(2, 500)}, try: fail(500, 3), want: Outcome{Status: 500, Tries: 3, Answered: 2}},
		{name: "other code is passed on", action: &routev3.RouteAction{RetryPolicy: codes(2, 500)}, try: fail(503, 2), want: Outcome{Status: 503, Tries: 1}},
		{name: "num_retries defaults to 1", action: &routev3.RouteAction{RetryPolicy: &routev3.RetryPolicy{RetryOn: "5xx"}}, try: fail(502, 5), want: Outcome{Status: 502, Tries: 2, Answered: 1}},
		{name: "virtual host policy", action: &routev3.RouteAction{}, vhost: &routev3.RetryPolicy{RetryOn: "gateway-error", NumRetries: wrapperspb.UInt32(1)}, try: fail(503, 1), want: Outcome{Status: 200, Tries: 2, Answered: 1}},
		{name: "gateway-error does not retry 500", action: &routev3.RouteAction{RetryPolicy: &routev3.RetryPolicy{RetryOn: "gateway-error", NumRetries: wrapperspb.UInt32(3)}}, try: fail(500, 1), want: Outcome{Status: 500, Tries: 1}},
		{name: "reset: 503 when out of tries", action: &routev3.RouteAction{}, try: reset(false, 1), want: Outcome{Status: 503, Tries: 1, Answered: -1}},
		{name: "connect-failure retries a refused connection", action: &routev3.RouteAction{RetryPolicy: &routev3.RetryPolicy{RetryOn: "connect-failure", NumRetries: wrapperspb.UInt32(1)}}, try: reset(true, 1), want: Outcome{Status: 200, Tries: 2, Answered: 1}},
		{name: "connect-failure does not retry a reset", action: &routev3.RouteAction{RetryPolicy: &routev3.RetryPolicy{RetryOn: "connect-failure", NumRetries: wrapperspb.UInt32(1)}}, try: reset(false, 1), want: Outcome{Status: 503, Tries: 1, Answered: -1}},
		{name: "route timeout", action: &routev3.RouteAction{Timeout: durationpb.New(ms(500))}, try: slow(ms(1000)), want: Outcome{Status: 504, Tries: 1, Answered: -1, TimedOut: true}},
		{name: "route timeout 0 disables it", action: &routev3.RouteAction{Timeout: durationpb.New(0)}, try: slow(time.Minute), want: Outcome{Status: 200, Tries: 1}},
		{name: "default route timeout is 15s", action: &routev3.RouteAction{}, try: slow(ms(15001)), want: Outcome{Status: 504, Tries: 1, Answered: -1, TimedOut: true}},
		{name: "per-try timeout, no retries", action: &routev3.RouteAction{RetryPolicy: &routev3.RetryPolicy{NumRetries: wrapperspb.UInt32(0), PerTryTimeout: durationpb.New(ms(500))}}, try: slow(ms(600)), want: Outcome{Status: 504, Tries: 1, Answered: -1, TimedOut: true}},
		{name: "per-try timeout retried, second try fast", action: &routev3.RouteAction{RetryPolicy: &routev3.RetryPolicy{RetryOn: "5xx", NumRetries: wrapperspb.UInt32(1), PerTryTimeout: durationpb.New(ms(500))}}, try: slow(ms(600), ms(10)), want: Outcome{Status: 200, Tries: 2, Answered: 1}},
		{name: "tries together pass the route timeout", action: &routev3.RouteAction{Timeout: durationpb.New(ms(700)), RetryPolicy: &routev3.RetryPolicy{RetryOn: "5xx", NumRetries: wrapperspb.UInt32(3), PerTryTimeout: durationpb.New(ms(500))}}, try: slow(ms(600)), want: Outcome{Status: 504, Tries: 2, Answered: -1, TimedOut: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := Result{RouteAction: tt.action, VirtualHostProto: &routev3.VirtualHost{RetryPolicy: tt.vhost}}
			calls := 0
			got := Forward(res, func(n int) Try {
				if n != calls {
					t.Fatalf("try %d asked for after %d calls", n, calls)
				}
				calls++
				return tt.try(n)
			})
			if got != tt.want {
				t.Errorf("Forward = %+v, want %+v", got, tt.want)
			}
			if calls != got.Tries {
				t.Errorf("try called %d times for %d tries", calls, got.Tries)
			}
		})
	}
}
