//go:build !linux

package main

// adviseHugePages does nothing where the kernel is not Linux: the advice
// it gives is Linux's madvise(MADV_HUGEPAGE).
func adviseHugePages(int64) {}
