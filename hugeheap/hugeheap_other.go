//go:build !linux

package hugeheap

// Advise does nothing where the kernel is not Linux, and returns 0: the
// advice it gives is Linux's madvise(MADV_HUGEPAGE).
func Advise(size int64) int64 { return 0 }
