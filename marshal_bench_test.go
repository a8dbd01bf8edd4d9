package sesame_test

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// BenchmarkMarshal measures proto.Marshal of every resource a translation
// of BenchmarkTranslate's inputs makes: the floor issue 22 holds
// Translate's CPU time to (at most twice this). A route configuration
// lists each virtual host's routes, so a route that falls through into
// many virtual hosts (a wildcard's, or one without hostname) is written
// once for each: the wire-msgs metric counts those, and wire-MB the
// bytes. Translate builds each such route once and points at it from
// every virtual host, so its cost follows the routes, not this.
func BenchmarkMarshal(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			if n > 10000 && testing.Short() {
				b.Skip("100,000 routes: not with -short")
			}
			res, err := sesame.Translate(gen.Objects(gen.Config{Seed: 1, Routes: n}), sesame.Options{Now: goldenNow})
			if err != nil {
				b.Fatal(err)
			}
			msgs, entries := outputMessages(res)
			b.ReportAllocs()
			stolen := reportSteal(b)
			size := 0
			for b.Loop() {
				size = marshalAll(b, msgs)
			}
			stolen()
			b.ReportMetric(float64(size)/1e6, "wire-MB")
			b.ReportMetric(float64(entries), "route-entries")
		})
	}
}

// outputMessages lists the result's Envoy resources, and counts the routes
// of its virtual hosts.
func outputMessages(res *sesame.Result) (msgs []proto.Message, entries int) {
	x := res.XDS
	for _, rc := range x.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			entries += len(vh.GetRoutes())
		}
	}
	return slices.Concat(messages(x.Listeners), messages(x.Routes), messages(x.Clusters), messages(x.Endpoints), messages(x.Secrets)), entries
}

var marshalRatio = flag.Bool("marshalratio", false,
	"after each BenchmarkTranslate, marshal a translation's output with proto.Marshal as BenchmarkMarshal does and report x-marshal: the translation's CPU over the marshal's, in the same minutes (issue 22 holds it to 2)")

// marshalAll is proto.Marshal of each of msgs, and the bytes written.
func marshalAll(b *testing.B, msgs []proto.Message) int {
	size := 0
	for _, m := range msgs {
		wire, err := proto.Marshal(m)
		if err != nil {
			b.Fatal(err)
		}
		size += len(wire)
	}
	return size
}

// reportMarshalRatio, with -marshalratio, reports x-marshal for the
// translations of objects b timed, of cpuPerOp each: their CPU time over
// that of proto.Marshal of the output of one more. The marshal runs after
// the timed loop, long enough for a second of CPU (or 50 times), so that
// the ratio is of the same minutes: this machine's speed changes by half
// within an hour, and both sides with it.
func reportMarshalRatio(b *testing.B, objects []k8sruntime.Object, cpuPerOp time.Duration) {
	if !*marshalRatio || cpuPerOp <= 0 {
		return
	}
	res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
	if err != nil {
		b.Fatal(err)
	}
	msgs, _ := outputMessages(res)
	runtime.GC() // the translations' garbage is theirs
	start, ok := processCPU()
	if !ok {
		return
	}
	var used time.Duration
	n := 0
	for n == 0 || (used < time.Second && n < 50) {
		marshalAll(b, msgs)
		n++
		now, _ := processCPU()
		used = now - start
	}
	b.ReportMetric(float64(cpuPerOp)/(float64(used)/float64(n)), "x-marshal")
}
