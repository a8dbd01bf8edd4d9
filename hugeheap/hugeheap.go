package hugeheap

import "strings"

// BytesPerManifestByte is how much heap range to advise for each byte of
// Kubernetes manifests (YAML or JSON) a program reads and translates: the
// heap's peak is about eight times the input (30 MB of YAML for 10,000
// HTTPRoutes make a heap of 250 MB), and the range the allocator spreads it
// over is wider than the peak.
const BytesPerManifestByte = 32

// Bounds of the advised range: below MinSize the faults saved cost less
// than the collection Advise runs; MaxSize bounds the address space
// reserved, which is never more than a quarter of the machine's memory
// either (maxShare).
const (
	MinSize  = 64 << 20
	MaxSize  = 16 << 30
	maxShare = 4
)

// rangeSize is the size of the range to advise when size bytes are asked
// for, on a machine with ram bytes of memory (0: unknown), whose
// transparent huge page mode
// (/sys/kernel/mm/transparent_hugepage/enabled) is thp and whose memory
// overcommit policy (/proc/sys/vm/overcommit_memory) is overcommit, in a
// process whose GODEBUG is godebug; 0 when no range is to be advised. Only
// the "madvise" mode needs asking: "always" gives huge pages unasked,
// "never" never does. With strict overcommit accounting (2), the range
// would be charged in full.
func rangeSize(size, ram int64, thp, overcommit, godebug string) int64 {
	if !strings.Contains(thp, "[madvise]") || strings.TrimSpace(overcommit) == "2" || disablesTHP(godebug) {
		return 0
	}
	size = min(max(size, MinSize), MaxSize)
	if ram > 0 {
		size = min(size, ram/maxShare)
	}
	if size < MinSize {
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
