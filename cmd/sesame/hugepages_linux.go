//go:build linux

package main

import (
	"os"
	"runtime"
	"sync"
	"syscall"
)

// adviseHugePages asks Linux for transparent huge pages in the address
// range the heap grows into while the command reads and translates input
// bytes of manifests (hugepages.go says why). A large allocation has the
// runtime map the range without touching it; madvise marks it; a
// collection gives it back to the heap, whose page allocator hands out the
// lowest free addresses first, so the objects allocated next land in it.
// Every failure is ignored: the command is then only slower. Only the
// first call of a process does anything: the range is the heap's from then
// on.
func adviseHugePages(input int64) {
	adviseOnce.Do(func() { advise(input) })
}

var adviseOnce sync.Once

func advise(input int64) {
	thp, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	overcommit, _ := os.ReadFile("/proc/sys/vm/overcommit_memory")
	var info syscall.Sysinfo_t
	var ram int64
	if syscall.Sysinfo(&info) == nil {
		ram = int64(info.Totalram) * int64(info.Unit)
	}
	size := advisedHeapSize(input, ram, string(thp), string(overcommit), os.Getenv("GODEBUG"))
	if size == 0 || int64(int(size)) != size {
		return
	}
	block := make([]byte, size) // fresh from the kernel: not zeroed again, not touched
	_ = syscall.Madvise(block, syscall.MADV_HUGEPAGE)
	runtime.GC() // block, dead now, is free before anything else is allocated
}
