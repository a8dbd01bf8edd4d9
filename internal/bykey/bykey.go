package bykey

import (
	"bytes"
	"cmp"
	"encoding/binary"

	"github.com/projectsesame/sesame/internal/parallel"
)

// Keys is where a key function writes the key of one value: its fields,
// with String, Int32 and Int64.
//
// Keys compare field by field, like a comparison function that compares the
// first fields and goes on to the next on a tie, provided no String field
// holds a zero byte (none of the names it sorts can) and every value
// appends the same kinds of fields in the same order.
type Keys struct {
	buf []byte
	// size counts the bytes of the keys instead, while measuring: Order
	// calls the key function twice, first to size the buffer exactly.
	size      int
	measuring bool
}

type entry struct {
	start, end int // the key is buf[start:end]
	index      int // of the value
}

// String appends a string field to the current key: the concatenation of
// parts. A zero byte ends it, so that a string sorts before every longer
// string it is a prefix of.
func (k *Keys) String(parts ...string) {
	if k.measuring {
		k.size++
		for _, s := range parts {
			k.size += len(s)
		}
		return
	}
	for _, s := range parts {
		k.buf = append(k.buf, s...)
	}
	k.buf = append(k.buf, 0)
}

// Int32 appends a number field to the current key, so that bytes compare
// as numbers do: big-endian, with the sign bit flipped to put negative
// numbers first.
func (k *Keys) Int32(v int32) {
	if k.measuring {
		k.size += 4
		return
	}
	k.buf = binary.BigEndian.AppendUint32(k.buf, uint32(v)^(1<<31))
}

// Int64 appends a number field to the current key, as Int32 does.
func (k *Keys) Int64(v int64) {
	if k.measuring {
		k.size += 8
		return
	}
	k.buf = binary.BigEndian.AppendUint64(k.buf, uint64(v)^(1<<63))
}

// Order returns the indexes of n values in the order of their keys, which
// key(k, i) writes for value i; of values with equal keys, the earlier
// comes first. key is called twice for each value, and should write the
// same key both times: once to measure the keys, so that their buffer is
// allocated once at its size, and once to write them.
func Order(n int, key func(k *Keys, i int)) []int {
	k := &Keys{measuring: true}
	for i := range n {
		key(k, i)
	}
	k.buf, k.measuring = make([]byte, 0, k.size), false
	entries := make([]entry, n)
	for i := range n {
		start := len(k.buf)
		key(k, i)
		entries[i] = entry{start: start, end: len(k.buf), index: i}
	}
	buf := k.buf
	parallel.Sort(entries, func(a, b entry) int {
		if c := bytes.Compare(buf[a.start:a.end], buf[b.start:b.end]); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
	order := make([]int, n)
	for i, e := range entries {
		order[i] = e.index
	}
	return order
}

// Permute puts s in the given order: the value at s[order[i]] moves to
// s[i]. order must hold every index of s once; Permute uses it up (it
// marks the places done with -1), moving each value once, along the
// cycles of the permutation, without a copy of s.
func Permute[T any](s []T, order []int) {
	for i := range order {
		if order[i] < 0 {
			continue
		}
		held := s[i]
		j := i
		for {
			from := order[j]
			order[j] = -1
			if from == i {
				s[j] = held
				break
			}
			s[j] = s[from]
			j = from
		}
	}
}
