package manifest

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// The scalars and keys fastJSON reads (fastyaml.go), and how it writes
// them as JSON.

// splitKey splits "key: value" or "key:"; the key must be plain and read
// as a string: letters, digits and ._/- , starting with a letter, and no
// word YAML 1.1 reads as a boolean or null.
func splitKey(content string) (key, rest string, ok bool) {
	if content == "" || !isLetter(content[0]) {
		return "", "", false
	}
	i := 1
	for ; i < len(content) && content[i] != ':'; i++ {
		if c := content[i]; !isLetter(c) && !isDigit(c) && c != '.' && c != '_' && c != '/' && c != '-' {
			return "", "", false
		}
	}
	if i == len(content) || (i+1 < len(content) && content[i+1] != ' ') {
		return "", "", false
	}
	key, rest = content[:i], content[i+1:]
	if yaml11Word(key) {
		return "", "", false
	}
	for rest != "" && rest[0] == ' ' {
		rest = rest[1:]
	}
	for rest != "" && rest[len(rest)-1] == ' ' {
		rest = rest[:len(rest)-1]
	}
	return key, rest, true
}

func isKeyLine(s string) bool {
	_, _, ok := splitKey(s)
	return ok
}

// yaml11Word: a plain word YAML 1.1 (yaml.v2) reads as a boolean or null.
func yaml11Word(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL":
		return true
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// scalar reads a scalar on one line.
func scalar(s string) (fastValue, bool) {
	switch s {
	case "true", "false", "null":
		return fastValue{json: s}, true
	case "{}":
		return fastValue{}, true
	case "[]":
		return fastValue{seq: true}, true
	case "~":
		return fastValue{json: "null"}, true
	}
	switch c := s[0]; {
	case c == '"':
		return doubleQuoted(s)
	case c == '\'':
		return singleQuoted(s)
	case isDigit(c) || c == '-':
		return number(s)
	case isLetter(c) || c == '/':
		if yaml11Word(s) || !plainString(s) {
			return fastValue{}, false
		}
		return fastValue{text: s, quoted: true}, true
	}
	return fastValue{}, false
}

// plainString: printable ASCII, no " #" comment, no ": ", no trailing
// colon. One pass: this and number read most values of a manifest.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e:
			return false
		case c == '#' && i > 0 && s[i-1] == ' ', c == ':' && (i+1 == len(s) || s[i+1] == ' '):
			return false
		}
	}
	return true
}

// number reads a decimal integer (no sign but "-", no leading zero, at
// most 18 digits), or a dotted quad of digits, which YAML reads as a
// string (an IPv4 address); anything else is left to yaml.v2.
func number(s string) (fastValue, bool) {
	digits := strings.TrimPrefix(s, "-")
	if len(digits) > 0 && len(digits) <= 18 && (digits == "0" || digits[0] != '0') && allDigits(digits) && s != "-0" {
		return fastValue{json: s}, true
	}
	if s[0] != '-' && dottedDigits(s) {
		return fastValue{text: s, quoted: true}, true
	}
	return fastValue{}, false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// dottedDigits: digits and at least two dots, no two dots together.
func dottedDigits(s string) bool {
	dots := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if i > 0 && s[i-1] == '.' {
				return false
			}
			dots++
		case !isDigit(c):
			return false
		}
	}
	return dots >= 2
}

// doubleQuoted reads "..." whose escapes are all JSON's: its text is then
// a JSON string as it is.
func doubleQuoted(s string) (fastValue, bool) {
	if len(s) < 2 || s[len(s)-1] != '"' {
		return fastValue{}, false
	}
	body := s[1 : len(s)-1]
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '"' || c < 0x20 || c == 0x7f:
			return fastValue{}, false
		case c == '\\':
			if i+1 >= len(body) || !strings.ContainsRune(`"\/bfnrtu`, rune(body[i+1])) {
				return fastValue{}, false
			}
			if body[i+1] == 'u' && (i+5 >= len(body) || strings.Trim(body[i+2:i+6], "0123456789abcdefABCDEF") != "") {
				return fastValue{}, false
			}
			i++
		}
	}
	return fastValue{json: s}, true
}

// singleQuoted reads '...', where ” is a quote.
func singleQuoted(s string) (fastValue, bool) {
	if len(s) < 2 || s[len(s)-1] != '\'' {
		return fastValue{}, false
	}
	body := s[1 : len(s)-1]
	if strings.Contains(strings.ReplaceAll(body, "''", ""), "'") {
		return fastValue{}, false
	}
	return fastValue{text: strings.ReplaceAll(body, "''", "'"), quoted: true}, true
}

// writeJSONString writes s quoted for JSON; control characters and
// non-ASCII are escaped.
func writeJSONString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i, r := range s {
		if r >= 0x20 && r <= 0x7e && r != '"' && r != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		start = i + utf8.RuneLen(r)
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r > 0xffff:
			r1, r2 := utf16Pair(r)
			writeU(b, r1)
			writeU(b, r2)
		default:
			writeU(b, r)
		}
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

func writeU(b *bytes.Buffer, r rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[r>>12&0xf])
	b.WriteByte(hex[r>>8&0xf])
	b.WriteByte(hex[r>>4&0xf])
	b.WriteByte(hex[r&0xf])
}
