package hugeheap_test

import (
	"fmt"

	"github.com/projectsesame/sesame/hugeheap"
)

// A controller's main asks, before its informers fill and it translates,
// for huge pages in the range its heap grows into: here 512 MiB, about
// what 10,000 HTTPRoutes with their Services and EndpointSlices take
// translated and held. Advise says how much it advised: 0 where it does
// nothing (another kernel, another huge page mode, a second call).
func ExampleAdvise() {
	if advised := hugeheap.Advise(512 << 20); advised > 0 {
		fmt.Printf("huge pages asked for %d MiB of heap\n", advised>>20)
	}
}
