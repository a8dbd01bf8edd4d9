package sesame_test

import (
	"fmt"
	"os"
	"time"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/explain"
)

// A controller or a UI asks "what would this request hit?" of a
// translation: the route and object that serve it, the backends, or the
// status Envoy answers with and why.
func ExampleResult_Explain() {
	f, err := os.Open("testdata/examples/explain.yaml")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	objects, _, err := sesame.Decode("explain.yaml", f)
	if err != nil {
		panic(err)
	}
	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		panic(err)
	}
	for _, line := range []string{"GET https://shop.example.com/web/index.html", "GET https://shop.example.com/cart"} {
		req, err := explain.ParseRequest(line, nil)
		if err != nil {
			panic(err) // a request line that cannot be parsed
		}
		e, err := res.Explain(req)
		if err != nil {
			panic(err) // a port several Gateways listen on: set req.Gateway
		}
		fmt.Println(line)
		if e.Route != nil {
			fmt.Println("  route:", e.Route.Object)
		}
		if e.Action != nil { // nil when no route matched
			for _, b := range e.Action.Backends {
				fmt.Printf("  backend: Service %s port %d, %d endpoints\n", b.Service, b.Port, b.Endpoints)
			}
		}
		fmt.Println("  outcome:", e.Outcome, e.Status)
		fmt.Println("  skipped:", len(e.Skipped))
	}
	// Output:
	// GET https://shop.example.com/web/index.html
	//   route: HTTPRoute shop/shop spec.rules[2].matches[0]
	//   backend: Service shop/web port 80, 1 endpoints
	//   outcome: forwarded 0
	//   skipped: 3
	// GET https://shop.example.com/cart
	//   outcome: answered 404
	//   skipped: 4
}
