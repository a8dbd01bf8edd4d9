package xdsgen

import (
	"strconv"
	"strings"
)

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
