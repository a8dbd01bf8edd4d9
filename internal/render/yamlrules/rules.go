package yamlrules

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Style is how a string is written.
type Style uint8

const (
	Plain   Style = iota
	Single        // 'it''s'
	Double        // "escaped\t"
	Literal       // |  block, for strings with line breaks
)

// Traits are what the emitter learns of a string before it writes
// it (libyaml's scalar analysis).
type Traits struct {
	Multiline     bool // it holds a line break
	PlainAllowed  bool // in block context
	SingleAllowed bool
	BlockAllowed  bool // a literal block may hold it
}

// Analyze returns the traits of s, valid UTF-8.
func Analyze(s string) Traits {
	if s == "" {
		return Traits{PlainAllowed: true, SingleAllowed: true}
	}
	if quiet(s) {
		return Traits{PlainAllowed: true, SingleAllowed: true, BlockAllowed: true}
	}
	var (
		indicators, special, lineBreaks             bool
		leadingSpace, leadingBreak                  bool
		trailingSpace, trailingBreak                bool
		breakSpace, spaceBreak                      bool
		precededByBlank                             = true
		previousSpace, previousBreak, followedBlank bool
	)
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		indicators = true
	}
	for i := 0; i < len(s); {
		w := CharWidth(s[i])
		last := i+w >= len(s)
		followedBlank = last || s[i+w] == ' ' || s[i+w] == '\t'
		c := s[i]
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				indicators = true
			case '?', ':', '-':
				indicators = indicators || followedBlank
			}
		} else if c == ':' && followedBlank || c == '#' && precededByBlank {
			indicators = true
		}
		if !Printable(s, i) {
			special = true
		}
		switch {
		case c == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || last
			breakSpace = breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case IsBreak(s, i):
			lineBreaks = true
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || last
			spaceBreak = spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByBlank = c == ' ' || c == '\t' || c == 0 || IsBreak(s, i)
		i += w
	}
	t := Traits{Multiline: lineBreaks, PlainAllowed: true, SingleAllowed: true, BlockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || indicators {
		t.PlainAllowed = false
	}
	if trailingSpace {
		t.BlockAllowed = false
	}
	if breakSpace {
		t.PlainAllowed, t.SingleAllowed = false, false
	}
	if spaceBreak || special {
		t.PlainAllowed, t.SingleAllowed, t.BlockAllowed = false, false, false
	}
	return t
}

// quietBytes are the bytes that change nothing in a string's traits
// anywhere but at its start: printable ASCII other than space, ':' and
// '#'. quietStart are those that change nothing at its start either.
var quietBytes, quietStart [256]bool

func init() {
	for c := 0x21; c < 0x7F; c++ {
		quietBytes[c] = c != ':' && c != '#'
		quietStart[c] = quietBytes[c] && !strings.ContainsRune("-.,[]{}&*!|>'\"%@`?", rune(c))
	}
}

// quiet says s is made of quiet bytes only, the common case (names,
// paths, type URLs): its traits are those of plain text.
func quiet(s string) bool {
	if !quietStart[s[0]] {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !quietBytes[s[i]] {
			return false
		}
	}
	return true
}

// StyleOf is the style yaml.v2 writes s in, as a key (simpleKey: a key
// on one line of at most 128 bytes) or as anything else.
func StyleOf(s string, t Traits, simpleKey bool) Style {
	style := Plain
	switch {
	case strings.IndexByte(s, '\n') >= 0:
		style = Literal
	case resolvesToNonString(s):
		style = Double
	}
	if simpleKey && t.Multiline {
		style = Double
	}
	if style == Plain && (!t.PlainAllowed || s == "" && simpleKey) {
		style = Single
	}
	if style == Single && !t.SingleAllowed {
		style = Double
	}
	if style == Literal && (!t.BlockAllowed || simpleKey) {
		style = Double
	}
	return style
}

// CharWidth is the length of the UTF-8 sequence b starts.
func CharWidth(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	default:
		return 4
	}
}

// At is s[i], or 0 past its end.
func At(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// Printable says the character at s[i] may be written unescaped: YAML's
// printable set, less U+0085 (NEL), U+FEFF (BOM) and everything outside
// the Basic Multilingual Plane, as libyaml tests it.
func Printable(s string, i int) bool {
	b, b1, b2 := s[i], At(s, i+1), At(s, i+2)
	switch {
	case b == '\n', b >= 0x20 && b <= 0x7E:
		return true
	case b == 0xC2:
		return b1 >= 0xA0
	case b > 0xC2 && b < 0xED, b == 0xEE:
		return true
	case b == 0xED:
		return b1 < 0xA0
	case b == 0xEF:
		return !(b1 == 0xBB && b2 == 0xBF) && !(b1 == 0xBF && (b2 == 0xBE || b2 == 0xBF))
	}
	return false
}

// IsBreak says s[i] starts a line break: CR, LF, NEL, LS or PS.
func IsBreak(s string, i int) bool {
	switch s[i] {
	case '\r', '\n':
		return true
	case 0xC2:
		return At(s, i+1) == 0x85
	case 0xE2:
		return At(s, i+1) == 0x80 && (At(s, i+2) == 0xA8 || At(s, i+2) == 0xA9)
	}
	return false
}

// resolvesToNonString says a YAML 1.1 reader (yaml.v2's) would read s,
// unquoted, as something other than a string: null, a boolean, a number
// (integers in any base, underscores allowed; base-60 floats too), a
// timestamp. yaml.v2 quotes those.
func resolvesToNonString(s string) bool {
	if s == "" {
		return true
	}
	switch c := s[0]; {
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return yamlWords[s]
	case c == '.':
		if yamlWords[s] {
			return true
		}
		_, err := strconv.ParseFloat(s, 64)
		return err == nil
	case c == '+', c == '-', c >= '0' && c <= '9':
		return yamlWords[s] || yamlNumberOrTime(s) || isBase60Float(s)
	}
	return false
}

// yamlWords are the strings YAML 1.1 reads as null, booleans and special
// floats.
var yamlWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE
		off Off OFF ~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF`) {
		yamlWords[w] = true
	}
}

// yamlNumberOrTime says s, starting with a sign or a digit, reads as a
// timestamp, an integer or a float.
func yamlNumberOrTime(s string) bool {
	if isTimestamp(s) {
		return true
	}
	if first := strings.TrimLeft(s, "_"); first == "" || !strings.ContainsRune("+-.0123456789", rune(first[0])) {
		return false // every number below starts so (the parsers' errors allocate)
	}
	plain := strings.ReplaceAll(s, "_", "")
	switch dots := strings.Count(plain, "."); {
	case dots > 1:
		return false // no number below has two dots: an IPv4 address
	case dots == 0 && strings.Trim(plain, "+-0123456789abcdefABCDEFxXoO") == "":
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return true
		}
	}
	if yamlFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		_, err := strconv.ParseInt(rest, 2, 64)
		_, errU := strconv.ParseUint(rest, 2, 64)
		return err == nil || errU == nil
	}
	if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		_, err := strconv.ParseInt("-"+rest, 2, 64)
		return err == nil
	}
	return false
}

var (
	yamlFloat   = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60Float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

// isBase60Float says s is a YAML 1.1 sexagesimal float ("1:20"), which
// yaml.v2 does not read as one but quotes for readers that do.
func isBase60Float(s string) bool {
	return strings.IndexByte(s, ':') >= 0 && base60Float.MatchString(s)
}

// timestampLayouts are the timestamp forms yaml.v2 reads.
var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp says s reads as a timestamp: four digits, a dash, and one
// of timestampLayouts.
func isTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for _, c := range s[:4] {
		if c < '0' || c > '9' {
			return false
		}
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// KeyCompare orders mapping keys as yaml.v2 does: character by
// character, letters after everything else, and runs of digits by their
// value, so that "a2" comes before "a10".
func KeyCompare(a, b string) int {
	if KeyLess(a, b) {
		return -1
	}
	if KeyLess(b, a) {
		return 1
	}
	return 0
}

// KeyLess says a comes before b in yaml.v2's key order, which is not
// total for some keys ("10" < "1a" < "007" < "9" < "10").
func KeyLess(a, b string) bool {
	if isASCII(a) && isASCII(b) {
		// The common case: bytes are characters.
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		switch {
		case i == len(a) || i == len(b):
			return len(a) < len(b)
		case asciiLetter(a[i]) && asciiLetter(b[i]):
			return a[i] < b[i]
		case asciiLetter(a[i]) || asciiLetter(b[i]):
			return asciiLetter(b[i])
		}
		return keyDiffLess([]rune(a), []rune(b), i)
	}
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] != br[i] {
			return keyDiffLess(ar, br, i)
		}
	}
	return len(ar) < len(br)
}

func asciiLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// keyDiffLess orders a and b, which first differ at rune i.
func keyDiffLess(a, b []rune, i int) bool {
	al, bl := unicode.IsLetter(a[i]), unicode.IsLetter(b[i])
	if al && bl {
		return a[i] < b[i]
	}
	if al || bl {
		return bl
	}
	// Digits compare by the number they start; a run starting with 0
	// after other digits ("10" against "1a") is not a leading zero.
	var an, bn int64
	if a[i] == '0' || b[i] == '0' {
		for j := i - 1; j >= 0 && unicode.IsDigit(a[j]); j-- {
			if a[j] != '0' {
				an, bn = 1, 1
				break
			}
		}
	}
	ai, bi := i, i
	for ; ai < len(a) && unicode.IsDigit(a[ai]); ai++ {
		an = an*10 + int64(a[ai]-'0')
	}
	for ; bi < len(b) && unicode.IsDigit(b[bi]); bi++ {
		bn = bn*10 + int64(b[bi]-'0')
	}
	if an != bn {
		return an < bn
	}
	if ai != bi {
		return ai < bi
	}
	return a[i] < b[i]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
