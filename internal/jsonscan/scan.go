package jsonscan

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
