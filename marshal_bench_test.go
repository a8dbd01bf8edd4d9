package sesame_test

import (
	"fmt"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

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
				size = 0
				for _, m := range msgs {
					wire, err := proto.Marshal(m)
					if err != nil {
						b.Fatal(err)
					}
					size += len(wire)
				}
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
