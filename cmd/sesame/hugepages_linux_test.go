package main

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAdviseMarksTheHeap checks on the running kernel that advise leaves a
// range of the advised size marked for huge pages ("hg" in smaps'
// VmFlags), a range the heap then allocates from.
func TestAdviseMarksTheHeap(t *testing.T) {
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(thp, []byte("[madvise]")) {
		t.Skipf("transparent huge pages are not in madvise mode here: %q", thp)
	}
	const input = 4 << 20
	size := advisedHeapSize(input, 0, string(thp), "0", "")
	if size == 0 {
		t.Fatal("no range to advise for 4 MiB of input")
	}
	before := hugeRanges(t)
	advise(input)
	after := hugeRanges(t)
	if after-before < size {
		t.Errorf("ranges marked for huge pages grew by %d KiB, want at least the %d KiB advised", (after-before)>>10, size>>10)
	}
}

// hugeRanges is the bytes of the process's mappings marked for huge pages.
func hugeRanges(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	var total, size int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Size:") {
			kb, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			size = kb << 10
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && strings.Contains(" "+flags+" ", " hg ") {
			total += size
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}
