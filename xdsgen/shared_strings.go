package xdsgen

import (
	"strconv"
	"strings"
)

// sharedStrings returns n strings, the i-th written by write, that share
// one allocation of about size bytes: every route and cluster needs a name,
// and one allocation per name is most of what naming costs. The strings
// keep the whole buffer alive, which is no loss when they live together, as
// the resources of one Generate do.
func sharedStrings(n, size int, write func(b *strings.Builder, i int)) []string {
	var b strings.Builder
	b.Grow(size)
	out := make([]string, n)
	ends := make([]int, n)
	for i := range n {
		write(&b, i)
		ends[i] = b.Len()
	}
	all, start := b.String(), 0 // cut only now: the buffer may have moved while growing
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	return out
}

// writeInt writes v in decimal without a string of its own.
func writeInt(b *strings.Builder, v int) {
	var digits [20]byte
	b.Write(strconv.AppendInt(digits[:0], int64(v), 10))
}

// intLen is the length of v in decimal.
func intLen(v int) int {
	n := 1
	if v < 0 {
		n++ // the sign; -v may overflow, so count on v
	}
	for ; v >= 10 || v <= -10; v /= 10 {
		n++
	}
	return n
}
