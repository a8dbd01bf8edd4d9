package strpack

import (
	"strconv"
	"strings"
)

// Strings makes n strings, the i-th length(i) bytes written by write and
// then handed to set, that share one allocation: every route and cluster
// needs a name or key, and one allocation each is most of what making them
// costs. The strings keep the whole buffer alive, which is no loss when
// they live together, as the parts of one translation do.
//
// length must be exact, as the buffer is cut by it; should write disagree,
// each string is made on its own instead, which is slower but still right.
func Strings(n int, length func(i int) int, write func(b *strings.Builder, i int), set func(i int, s string)) {
	size := 0
	for i := range n {
		size += length(i)
	}
	var b strings.Builder
	b.Grow(size)
	exact := true
	for i := range n {
		before := b.Len()
		write(&b, i)
		exact = exact && b.Len()-before == length(i)
	}
	if !exact {
		for i := range n {
			var one strings.Builder
			write(&one, i)
			set(i, one.String())
		}
		return
	}
	all, start := b.String(), 0
	for i := range n {
		end := start + length(i)
		set(i, all[start:end])
		start = end
	}
}

// WriteInt writes v to b in decimal, without a string of its own.
func WriteInt(b *strings.Builder, v int) {
	var digits [20]byte
	b.Write(strconv.AppendInt(digits[:0], int64(v), 10))
}

// IntLen is the length of v in decimal, as WriteInt writes it.
func IntLen(v int) int {
	n := 1
	if v < 0 {
		n++ // the sign; -v may overflow, so count on v
	}
	for ; v >= 10 || v <= -10; v /= 10 {
		n++
	}
	return n
}
