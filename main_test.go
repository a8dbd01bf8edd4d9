package sesame_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/projectsesame/sesame/hugeheap"
)

var hugeHeapMiB = flag.Int64("hugeheap", 0,
	"before the tests and benchmarks, ask for huge pages for this many MiB of the heap's next range (package hugeheap), as a program's main can")

// TestMain runs the package's tests, with the heap's next range advised for
// huge pages when -hugeheap says so: README's Performance section gives
// BenchmarkTranslate both ways.
func TestMain(m *testing.M) {
	flag.Parse()
	if *hugeHeapMiB > 0 && hugeheap.Advise(*hugeHeapMiB<<20) == 0 {
		fmt.Fprintln(os.Stderr, "-hugeheap: nothing advised on this machine (package hugeheap says when)")
	}
	os.Exit(m.Run())
}
