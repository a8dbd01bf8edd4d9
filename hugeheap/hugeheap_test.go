package hugeheap

import "testing"

func TestRangeSize(t *testing.T) {
	const (
		mib     = int64(1) << 20
		gib     = int64(1) << 30
		madvise = "always [madvise] never\n"
	)
	for _, tc := range []struct {
		name                     string
		size, ram                int64
		thp, overcommit, godebug string
		want                     int64
	}{
		{"10,000 routes of manifests", 30 * mib * BytesPerManifestByte, 24 * gib, madvise, "0\n", "", 960 * mib},
		{"small: the least range", mib, 24 * gib, madvise, "0", "", MinSize},
		{"zero: the least range", 0, 24 * gib, madvise, "0", "", MinSize},
		{"huge: capped", 1 << 40, 128 * gib, madvise, "0", "", MaxSize},
		{"a quarter of the machine's memory", 3200 * mib, 2 * gib, madvise, "1", "", 512 * mib},
		{"too little memory for the least range", 960 * mib, 128 * mib, madvise, "0", "", 0},
		{"memory unknown", 960 * mib, 0, madvise, "0", "", 960 * mib},
		{"mode always: the kernel does it unasked", 960 * mib, 24 * gib, "[always] madvise never", "0", "", 0},
		{"mode never", 960 * mib, 24 * gib, "always madvise [never]", "0", "", 0},
		{"no such file", 960 * mib, 24 * gib, "", "0", "", 0},
		{"strict overcommit", 960 * mib, 24 * gib, madvise, "2\n", "", 0},
		{"GODEBUG=disablethp=1", 960 * mib, 24 * gib, madvise, "0", "gctrace=1,disablethp=1", 0},
		{"disablethp=1 set back", 960 * mib, 24 * gib, madvise, "0", "disablethp=1,disablethp=0", 960 * mib},
		{"another key", 960 * mib, 24 * gib, madvise, "0", "xdisablethp=1", 960 * mib},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rangeSize(tc.size, tc.ram, tc.thp, tc.overcommit, tc.godebug); got != tc.want {
				t.Errorf("rangeSize(%d MiB, %d MiB, %q, %q, %q) = %d MiB, want %d MiB",
					tc.size/mib, tc.ram/mib, tc.thp, tc.overcommit, tc.godebug, got/mib, tc.want/mib)
			}
		})
	}
}
