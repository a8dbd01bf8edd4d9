package sesame_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/explain"
	"github.com/projectsesame/sesame/internal/gen"
)

// BenchmarkExplain explains one request against generated translations of
// 1,000 and 10,000 HTTPRoutes (package internal/gen), sent to the virtual
// host with the most routes: "miss" matches none of them, so every route
// is tried and listed as skipped (the worst case), "hit" is taken by the
// host's first route.
func BenchmarkExplain(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		res, err := sesame.Translate(gen.Objects(gen.Config{Seed: 1, Routes: n}), sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			b.Fatal(err)
		}
		host, first := "", ""
		most := -1
		for _, rc := range res.XDS.Routes {
			for _, vh := range rc.GetVirtualHosts() {
				if d := vh.GetDomains()[0]; len(vh.GetRoutes()) > most && !strings.Contains(d, "*") {
					host, most = d, len(vh.GetRoutes())
					first = vh.GetRoutes()[0].GetMatch().GetPrefix() + vh.GetRoutes()[0].GetMatch().GetPath() + vh.GetRoutes()[0].GetMatch().GetPathSeparatedPrefix()
				}
			}
		}
		for _, c := range []struct{ name, path string }{{"miss", "/no/such/path"}, {"hit", first}} {
			b.Run(fmt.Sprintf("routes=%d/%s", n, c.name), func(b *testing.B) {
				req, err := explain.ParseRequest("GET http://"+host+c.path, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := res.Explain(req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
