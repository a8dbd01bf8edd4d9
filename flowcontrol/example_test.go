package flowcontrol_test

import (
	"fmt"
	"time"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/flowcontrol"
)

// A token bucket of 2 QPS with bursts of 3, on a fixed timeline.
func ExampleTokenBucketLimiter() {
	l, err := flowcontrol.New(flowcontrol.Schema{
		Name:                           "list",
		FlowControlSchemaConfiguration: v1alpha1.FlowControlSchemaConfiguration{TokenBucket: &flowcontrol.TokenBucketSchema{QPS: 2, Burst: 3}},
	})
	if err != nil {
		panic(err)
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, at := range []time.Duration{0, 0, 0, 0, 100 * time.Millisecond, 500 * time.Millisecond, 400 * time.Millisecond} {
		_, ok := l.Allow(t0.Add(at))
		fmt.Println(at, ok)
	}
	// Output:
	// 0s true
	// 0s true
	// 0s true
	// 0s false
	// 100ms false
	// 500ms true
	// 400ms false
}

// A proxy looks up the limiter of a DispatchPolicy's flowControlSchemaName
// and releases the Permit when the request ends.
func ExampleSet() {
	set, err := flowcontrol.NewSet([]flowcontrol.Schema{
		{Name: "writes", FlowControlSchemaConfiguration: v1alpha1.FlowControlSchemaConfiguration{MaxRequestsInflight: &flowcontrol.MaxRequestsInflightSchema{Max: 1}}},
	})
	if err != nil {
		panic(err)
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

	l, _ := set.Get("writes")
	first, ok := l.Allow(now)
	fmt.Println("first:", ok)
	_, ok = l.Allow(now)
	fmt.Println("second, while the first is in flight:", ok)
	first.Release()
	second, ok := l.Allow(now)
	fmt.Println("second, after the first ended:", ok)
	defer second.Release()

	l, warning := set.Get("reads")
	fmt.Println(l.Kind(), warning)
	// Output:
	// first: true
	// second, while the first is in flight: false
	// second, after the first ended: true
	// Exempt flowcontrol: no flow control schema named "reads"; requests are exempt
}
