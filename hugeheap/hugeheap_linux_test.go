package hugeheap

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAdviseMarksTheHeap checks on the running kernel that Advise leaves a
// range of the size it returns marked for huge pages ("hg" in smaps'
// VmFlags), and that a second call does nothing.
func TestAdviseMarksTheHeap(t *testing.T) {
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(thp, []byte("[madvise]")) {
		t.Skipf("transparent huge pages are not in madvise mode here: %q", thp)
	}
	if disablesTHP(os.Getenv("GODEBUG")) {
		t.Skip("GODEBUG=disablethp=1")
	}
	before := hugeRanges(t)
	size := Advise(MinSize)
	if size != MinSize {
		t.Fatalf("Advise(%d) = %d, want %d", MinSize, size, MinSize)
	}
	if grown := hugeRanges(t) - before; grown < size {
		t.Errorf("ranges marked for huge pages grew by %d KiB, want at least the %d KiB advised", grown>>10, size>>10)
	}
	if again := Advise(MinSize); again != 0 {
		t.Errorf("a second Advise = %d, want 0: the range is the heap's already", again)
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
