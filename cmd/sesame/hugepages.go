package main

import (
	"strings"
)

// The command's heap grows to about eight times the manifests it reads
// (30 MB of YAML for 10,000 HTTPRoutes become a heap of 250 MB), all of it
// new memory that the kernel maps a 4 KiB page at a time, on first touch.
// Where Linux gives transparent huge pages only to memory that asks for
// them (the "madvise" mode, the default of many distributions), a page
// fault is paid for every 4 KiB: 60,000 of them at 10,000 routes, a third
// of the command's wall time on a 2-core virtual machine, where a fault and
// a TLB miss cost most. Go's runtime does not ask for huge pages for its
// heap, so the command does, once, before reading (hugepages_linux.go):
// it has the runtime map the address range the heap will grow into, asks
// for huge pages there, and gives the range back to the heap. 2 MiB pages
// then take a fault each, 512 times fewer.
//
// GODEBUG=disablethp=1, Go's own switch against huge pages for the heap,
// turns this off as well.

// heapPerInputByte is how many bytes of address range to advise for each
// byte of input: the heap's peak is about eight times the input, and the
// range the allocator spreads it over is wider than the peak.
const heapPerInputByte = 32

// Bounds of the advised range. Below minAdvisedInput of input, faults cost
// little and the range is not worth its setup. The range is address space,
// not memory: untouched pages of it take none, but it is kept to a share of
// the machine's memory all the same (maxAdvisedShare), and to
// maxAdvisedHeap.
const (
	minAdvisedInput = 1 << 20
	minAdvisedHeap  = 64 << 20
	maxAdvisedHeap  = 4 << 30
	maxAdvisedShare = 4 // at most a quarter of the machine's memory
)

// advisedHeapSize is the size of the heap range to advise for input bytes
// of manifests, on a machine with ram bytes of memory, whose transparent
// huge page mode (/sys/kernel/mm/transparent_hugepage/enabled) is thp and
// whose memory overcommit policy (/proc/sys/vm/overcommit_memory) is
// overcommit; 0 when no range is to be advised. Only the "madvise" mode
// needs asking: "always" gives huge pages unasked, "never" never does. With
// strict overcommit accounting (2), the range would be charged in full.
func advisedHeapSize(input, ram int64, thp, overcommit, godebug string) int64 {
	if input < minAdvisedInput || !strings.Contains(thp, "[madvise]") ||
		strings.TrimSpace(overcommit) == "2" || disablesTHP(godebug) {
		return 0
	}
	size := min(max(input*heapPerInputByte, minAdvisedHeap), maxAdvisedHeap)
	if ram > 0 {
		size = min(size, ram/maxAdvisedShare)
	}
	if size < minAdvisedHeap {
		return 0
	}
	return size
}

// disablesTHP reports whether a GODEBUG value sets disablethp=1; the last
// setting of a key wins, as the runtime reads it.
func disablesTHP(godebug string) bool {
	off := false
	for kv := range strings.SplitSeq(godebug, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && k == "disablethp" {
			off = v == "1"
		}
	}
	return off
}
