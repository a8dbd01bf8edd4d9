package main

import "testing"

func TestAdvisedHeapSize(t *testing.T) {
	const (
		mib     = int64(1) << 20
		gib     = int64(1) << 30
		madvise = "always [madvise] never\n"
	)
	for _, tc := range []struct {
		name                     string
		input, ram               int64
		thp, overcommit, godebug string
		want                     int64
	}{
		{"10,000 routes", 30 * mib, 24 * gib, madvise, "0\n", "", 960 * mib},
		{"small input: nothing", mib - 1, 24 * gib, madvise, "0", "", 0},
		{"1 MiB: the least range", mib, 24 * gib, madvise, "0", "", 64 * mib},
		{"huge input: capped", 1 << 40, 64 * gib, madvise, "0", "", 4 * gib},
		{"a quarter of the machine's memory", 100 * mib, 2 * gib, madvise, "1", "", 512 * mib},
		{"too little memory for the least range", 30 * mib, 128 * mib, madvise, "0", "", 0},
		{"memory unknown", 30 * mib, 0, madvise, "0", "", 960 * mib},
		{"mode always: the kernel does it unasked", 30 * mib, 24 * gib, "[always] madvise never", "0", "", 0},
		{"mode never", 30 * mib, 24 * gib, "always madvise [never]", "0", "", 0},
		{"no such file", 30 * mib, 24 * gib, "", "0", "", 0},
		{"strict overcommit", 30 * mib, 24 * gib, madvise, "2\n", "", 0},
		{"GODEBUG=disablethp=1", 30 * mib, 24 * gib, madvise, "0", "gctrace=1,disablethp=1", 0},
		{"disablethp=1 set back", 30 * mib, 24 * gib, madvise, "0", "disablethp=1,disablethp=0", 960 * mib},
		{"another key", 30 * mib, 24 * gib, madvise, "0", "xdisablethp=1", 960 * mib},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := advisedHeapSize(tc.input, tc.ram, tc.thp, tc.overcommit, tc.godebug); got != tc.want {
				t.Errorf("advisedHeapSize(%d, %d, %q, %q, %q) = %d MiB, want %d MiB",
					tc.input, tc.ram, tc.thp, tc.overcommit, tc.godebug, got/mib, tc.want/mib)
			}
		})
	}
}
