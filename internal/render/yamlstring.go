package render

import (
	"strings"
	"unicode/utf8"

	"github.com/projectsesame/sesame/internal/render/yamlrules"
)

// How yaml.v2 writes a string in each style, folding long plain and
// quoted ones at spaces after column 80 onto lines indented two past
// their container (literal blocks are never folded; keys never are).

// foldAt is the column after which yaml.v2 folds (its best width).
const foldAt = 80

// scalar writes s in style; a key is written where the writer is, a value
// after the space that follows its "key:". It does not end the line.
func (y *yamlWriter) scalar(s string, style yamlrules.Style, key bool) {
	if !key && y.at == placeValue {
		y.ascii(" ")
	}
	indent := y.ind + 2
	switch style {
	case yamlrules.Plain:
		y.plain(s, indent, !key)
	case yamlrules.Single:
		y.singleQuoted(s, indent, !key)
	case yamlrules.Double:
		y.doubleQuoted(s, indent, !key)
	case yamlrules.Literal:
		y.literal(s, indent)
	}
}

// char writes the character at s[i] and returns the index after it.
func (y *yamlWriter) char(s string, i int) int {
	w := yamlrules.CharWidth(s[i])
	y.w.WriteString(s[i : i+w])
	y.col++
	return i + w
}

// fold breaks the line and indents the next.
func (y *yamlWriter) fold(indent int) {
	y.w.WriteByte('\n')
	y.col = 0
	y.padTo(indent)
}

func (y *yamlWriter) plain(s string, indent int, breaks bool) {
	if strings.IndexByte(s, ' ') < 0 {
		y.text(s) // nothing to fold at
		return
	}
	spaces := false
	for i := 0; i < len(s); {
		if s[i] != ' ' {
			// A run of other characters, written at once.
			j := i
			n := 0
			for j < len(s) && s[j] != ' ' {
				j += yamlrules.CharWidth(s[j])
				n++
			}
			y.w.WriteString(s[i:j])
			y.col += n
			i, spaces = j, false
			continue
		}
		if breaks && !spaces && y.col > foldAt && yamlrules.At(s, i+1) != ' ' {
			y.fold(indent)
			i++
		} else {
			i = y.char(s, i)
		}
		spaces = true
	}
}

func (y *yamlWriter) singleQuoted(s string, indent int, breaks bool) {
	y.ascii("'")
	spaces, inBreaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if breaks && !spaces && y.col > foldAt && i > 0 && i < len(s)-1 && s[i+1] != ' ' {
				y.fold(indent)
				i++
			} else {
				i = y.char(s, i)
			}
			spaces = true
		case yamlrules.IsBreak(s, i):
			if !inBreaks && s[i] == '\n' {
				y.w.WriteByte('\n')
			}
			i = y.lineBreak(s, i)
			inBreaks = true
		default:
			if inBreaks {
				y.padTo(indent)
			}
			if s[i] == '\'' {
				y.ascii("'")
			}
			i = y.char(s, i)
			spaces, inBreaks = false, false
		}
	}
	y.ascii("'")
}

// lineBreak writes the line break at s[i] as itself and returns the
// index after it.
func (y *yamlWriter) lineBreak(s string, i int) int {
	if s[i] == '\n' {
		y.w.WriteByte('\n')
		i++
	} else {
		i = y.char(s, i)
	}
	y.col = 0
	return i
}

// yamlEscapes are the short escapes of double-quoted YAML.
var yamlEscapes = map[rune]byte{
	0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0A: 'n', 0x0B: 'v', 0x0C: 'f', 0x0D: 'r', 0x1B: 'e',
	'"': '"', '\\': '\\', 0x85: 'N', 0xA0: '_', 0x2028: 'L', 0x2029: 'P',
}

func (y *yamlWriter) doubleQuoted(s string, indent int, breaks bool) {
	y.ascii(`"`)
	// A string starting with a byte order mark has every character
	// escaped, as libyaml's check of it looks at the string's start.
	bom := len(s) >= 3 && s[:3] == "\xEF\xBB\xBF"
	spaces := false
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case bom || !yamlrules.Printable(s, i) || yamlrules.IsBreak(s, i) || c == '"' || c == '\\':
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
			y.escape(r)
			spaces = false
		case c == ' ':
			if breaks && !spaces && y.col > foldAt && i > 0 && i < len(s)-1 {
				y.fold(indent)
				if s[i+1] == ' ' {
					y.ascii(`\`)
				}
				i++
			} else {
				i = y.char(s, i)
			}
			spaces = true
		default:
			i = y.char(s, i)
			spaces = false
		}
	}
	y.ascii(`"`)
}

// escape writes r escaped: a short escape, or \x, \u or \U and its code
// point in upper-case hex.
func (y *yamlWriter) escape(r rune) {
	if e, ok := yamlEscapes[r]; ok {
		y.w.WriteByte('\\')
		y.w.WriteByte(e)
		y.col += 2
		return
	}
	prefix, digits := `\x`, 2
	switch {
	case r > 0xFFFF:
		prefix, digits = `\U`, 8
	case r > 0xFF:
		prefix, digits = `\u`, 4
	}
	y.ascii(prefix)
	for k := (digits - 1) * 4; k >= 0; k -= 4 {
		y.w.WriteByte("0123456789ABCDEF"[(r>>k)&0xF])
	}
	y.col += digits
}

// literal writes s, which holds a line break, as a literal block: "|",
// an indentation indicator when s starts with a space or a break, a
// chomping indicator ("-" when s does not end with a break, "+" when it
// ends with more than one), then s's lines, indented.
func (y *yamlWriter) literal(s string, indent int) {
	y.ascii("|")
	if s[0] == ' ' || yamlrules.IsBreak(s, 0) {
		y.ascii("2")
	}
	last := lastCharStart(s, len(s))
	switch {
	case !yamlrules.IsBreak(s, last):
		y.ascii("-")
	case last == 0 || yamlrules.IsBreak(s, lastCharStart(s, last)):
		y.ascii("+")
	}
	y.w.WriteByte('\n')
	y.col = 0
	inBreaks := true
	for i := 0; i < len(s); {
		if yamlrules.IsBreak(s, i) {
			i = y.lineBreak(s, i)
			inBreaks = true
			continue
		}
		if inBreaks {
			y.padTo(indent)
		}
		i = y.char(s, i)
		inBreaks = false
	}
}

// lastCharStart is the index of the character that ends s[:end].
func lastCharStart(s string, end int) int {
	i := end - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}
