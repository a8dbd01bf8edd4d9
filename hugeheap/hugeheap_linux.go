//go:build linux

package hugeheap

import (
	"os"
	"runtime"
	"sync"
	"syscall"
)

// Advise asks for transparent huge pages in the next size bytes of address
// range the heap grows into (the package doc says how and when nothing is
// done), and returns the size of the range advised, or 0. Only the first
// call of a process does anything: the range is the heap's from then on.
// Every failure is ignored: the program is then only slower.
func Advise(size int64) int64 {
	var advised int64
	once.Do(func() { advised = advise(size) })
	return advised
}

var once sync.Once

func advise(size int64) int64 {
	thp, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	overcommit, _ := os.ReadFile("/proc/sys/vm/overcommit_memory")
	var info syscall.Sysinfo_t
	var ram int64
	if syscall.Sysinfo(&info) == nil {
		ram = int64(info.Totalram) * int64(info.Unit)
	}
	size = rangeSize(size, ram, string(thp), string(overcommit), os.Getenv("GODEBUG"))
	if size == 0 || int64(int(size)) != size {
		return 0
	}
	block := make([]byte, size) // fresh from the kernel: not zeroed again, not touched
	if syscall.Madvise(block, syscall.MADV_HUGEPAGE) != nil {
		return 0
	}
	runtime.GC() // block, dead now, is free before anything else is allocated
	return size
}
