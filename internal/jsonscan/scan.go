package jsonscan

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how deep Skip follows nesting: below encoding/json's limit
// of 10,000, so that what Skip accepts encoding/json reads too.
const MaxDepth = 9000

// Space returns the index of the first byte at or after i that is not
// JSON white space.
func Space(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Skip returns the index just after the value that starts at data[i]: a
// string or container is taken whole, anything else runs to the next
// comma, closing bracket or white space. ok is false when data ends
// inside the value, or it nests past MaxDepth.
func Skip(data []byte, i int) (end int, ok bool) {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			i++
			for i < len(data) && data[i] != '"' {
				if data[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(data) {
				return i, false
			}
			i++
			if depth == 0 {
				return i, true
			}
		case '{', '[':
			if depth++; depth > MaxDepth {
				return i, false
			}
			i++
		case '}', ']':
			if depth == 0 {
				return i, true // the end of what holds the value
			}
			depth--
			i++
			if depth == 0 {
				return i, true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, true
			}
			i++
		default:
			i++
		}
	}
	return i, depth == 0
}

// String reads the string whose opening quote is data[i], its escapes
// decoded as encoding/json decodes them (a lone surrogate, and each byte
// of invalid UTF-8, become U+FFFD), and returns it and the index after its
// closing quote; ok is false when data[i] starts no well-formed string.
func String(data []byte, i int) (s string, end int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return "", i, false
	}
	i++
	start := i
	for i < len(data) && data[i] != '"' && data[i] != '\\' && data[i] >= 0x20 {
		i++
	}
	if i < len(data) && data[i] == '"' {
		return validString(data[start:i]), i + 1, true
	}
	out := append([]byte(nil), data[start:i]...)
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			return validString(out), i + 1, true
		case c < 0x20:
			return "", i, false
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(data) {
			break
		}
		esc := data[i+1]
		i += 2
		switch esc {
		case '"', '\\', '/':
			out = append(out, esc)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(data, i)
			if !ok {
				return "", i, false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(data, i+2); ok && data[i] == '\\' && data[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", i, false
		}
	}
	return "", i, false
}

// hex4 reads the four hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i < 0 || len(data)-i < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(data[i:i+4]), 16, 32)
	return rune(v), err == nil
}

// validString is b as a string, each byte of invalid UTF-8 U+FFFD.
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b)))
}
