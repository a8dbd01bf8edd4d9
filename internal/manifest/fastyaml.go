package manifest

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// fastJSON converts a YAML document to JSON without yaml.v2 when the
// document keeps to the block style kubectl and most tools write: block
// mappings and sequences indented with spaces, keys of letters, digits
// and ._/-, double- or single-quoted strings on one line, plain strings that
// cannot be read as anything else, decimal integers, booleans, null, "{}"
// and "[]", literal block scalars ("|", "|-") and comment lines. It says
// false for anything else (flow collections, anchors, tags, folded or
// multi-line scalars, plain scalars that YAML 1.1 might read as numbers,
// booleans or times, duplicate keys...), and the caller takes yaml.v2's
// path, which reads every YAML. Decoding through yaml.v2 is the bulk of
// reading a large manifest; this is several times faster, and
// TestFastJSONAgreesWithYAML and FuzzFastJSON hold it to yaml.v2's
// reading (sigs.k8s.io/yaml.YAMLToJSONStrict) wherever it says true.
func fastJSON(doc []byte) ([]byte, bool) {
	v, ok := fastTree(doc)
	if !ok {
		return nil, false
	}
	return v.jsonText(), true
}

// fastTree reads a document as fastJSON does, into the tree of its values;
// nil for a document of nothing (JSON null).
func fastTree(doc []byte) (*fastValue, bool) {
	return new(fastParser).tree(doc)
}

// tree is fastTree with p, whose slabs it reuses: the tree of its last
// document must not be used after.
func (p *fastParser) tree(doc []byte) (*fastValue, bool) {
	if !printable(doc) {
		return nil, false
	}
	p.noFinalBreak = !bytes.HasSuffix(doc, []byte("\n"))
	p.nodes, p.strs, p.ptrs = p.nodes[:0], p.strs[:0], p.ptrs[:0]
	p.keys, p.values, p.depth = p.keys[:0], p.values[:0], 0
	if lines := bytes.Count(doc, []byte("\n")) + 1; cap(p.lines) >= lines {
		p.lines = p.lines[:0]
	} else {
		p.lines = make([]fastLine, 0, lines)
	}
	text := string(doc) // one copy: lines, and the strings read from them, are substrings
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.TrimSuffix(line, "\r")
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		content := line[indent:]
		switch {
		case strings.TrimRight(content, " ") == "" || content[0] == '#':
			// blank or comment lines matter only inside block scalars
			p.lines = append(p.lines, fastLine{indent: -1, raw: line})
			continue
		case content[0] == '\t' || content[0] == '%' || strings.HasPrefix(content, "---") || strings.HasPrefix(content, "..."):
			return nil, false
		}
		p.lines = append(p.lines, fastLine{indent: indent, content: content, raw: line})
	}
	i := p.skipBlank(0)
	if i == len(p.lines) {
		return nil, true
	}
	v, next, ok := p.block(i, p.lines[i].indent)
	if !ok || p.skipBlank(next) != len(p.lines) {
		return nil, false
	}
	return v, true
}

// printable says doc is valid UTF-8 of characters YAML prints, with no
// tab, no line break but "\n" (or "\r\n") and no byte order mark: the
// fast reader splits lines on "\n" alone.
func printable(doc []byte) bool {
	for i := 0; i < len(doc); {
		c := doc[i]
		if quietASCII[c] { // most of a manifest, at a table lookup a byte
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c != '\r' || i+1 >= len(doc) || doc[i+1] != '\n' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(doc[i:])
		if r == utf8.RuneError || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return false
		}
		i += size
	}
	return true
}

// quietASCII are the ASCII bytes printable takes as they are: the
// printable ones and "\n".
var quietASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\n'] = true
	return t
}()

type fastLine struct {
	indent  int // -1 for a blank or comment line
	content string
	raw     string
}

type fastParser struct {
	lines []fastLine
	// noFinalBreak says the document's last line has no line break.
	noFinalBreak bool
	// The tree's nodes, and its mappings' keys and values, are taken from
	// slabs, reused from document to document: the tree is a few
	// allocations, not one per value (it was most of reading's garbage).
	nodes []fastValue
	strs  []string
	ptrs  []*fastValue
	depth int // of the block being read
	// keys and values are the members of the mappings and sequences being
	// read, the innermost last.
	keys   []string
	values []*fastValue
}

// slabSize is the least number of nodes, keys or values a slab holds.
const slabSize = 256

// node is a node of the tree holding v.
func (p *fastParser) node(v fastValue) *fastValue {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]fastValue, 0, max(slabSize, 2*cap(p.nodes)))
	}
	p.nodes = append(p.nodes, v)
	return &p.nodes[len(p.nodes)-1]
}

// members takes the members of a mapping or sequence off the stacks into
// v: its values from index from, its keys (of a mapping) from keysFrom.
func (p *fastParser) members(v *fastValue, from, keysFrom int, mapping bool) {
	n := len(p.values) - from
	if len(p.ptrs)+n > cap(p.ptrs) {
		p.ptrs = make([]*fastValue, 0, max(slabSize, 2*cap(p.ptrs), n))
	}
	start := len(p.ptrs)
	p.ptrs = append(p.ptrs, p.values[from:]...)
	v.values = p.ptrs[start:len(p.ptrs):len(p.ptrs)]
	p.values = p.values[:from]
	if mapping {
		if len(p.strs)+n > cap(p.strs) {
			p.strs = make([]string, 0, max(slabSize, 2*cap(p.strs), n))
		}
		start := len(p.strs)
		p.strs = append(p.strs, p.keys[keysFrom:]...)
		v.keys = p.strs[start:len(p.strs):len(p.strs)]
		p.keys = p.keys[:keysFrom]
	}
}

// fastValue is a parsed value: a mapping (keys and values), a sequence
// (values), JSON text (json), or a string (text, quoted).
type fastValue struct {
	keys   []string
	values []*fastValue
	seq    bool
	json   string
	text   string
	quoted bool
}

func (p *fastParser) skipBlank(i int) int {
	for i < len(p.lines) && p.lines[i].indent < 0 {
		i++
	}
	return i
}

// block parses the mapping or sequence whose first line is i, at indent.
func (p *fastParser) block(i, indent int) (*fastValue, int, bool) {
	if p.depth++; p.depth > maxDepth {
		return nil, 0, false
	}
	defer func() { p.depth-- }()
	l := p.lines[i]
	if l.content == "-" || strings.HasPrefix(l.content, "- ") {
		return p.sequence(i, indent)
	}
	return p.mapping(i, indent)
}

// maxDepth is the deepest nesting the fast reader reads: yaml.v2 and
// encoding/json each refuse documents nested deeper than 10,000, and
// yaml.v2 says so at once. A document of a million "- " on one line is 2
// MB; read here to the end, it took 16 s and 900 MB before encoding/json
// refused it.
const maxDepth = 10_000

func (p *fastParser) sequence(i, indent int) (*fastValue, int, bool) {
	v := p.node(fastValue{seq: true})
	from := len(p.values)
	for i = p.skipBlank(i); i < len(p.lines) && p.lines[i].indent == indent; i = p.skipBlank(i) {
		l := p.lines[i]
		if l.content != "-" && !strings.HasPrefix(l.content, "- ") {
			break
		}
		rest := strings.TrimRight(strings.TrimLeft(strings.TrimPrefix(l.content, "-"), " "), " ")
		var item *fastValue
		var ok bool
		switch {
		case rest == "":
			item, i, ok = p.nested(i+1, indent, true)
		case isKeyLine(rest) || rest == "-" || strings.HasPrefix(rest, "- "):
			// "- key: value" and "- - item": the item is a block at the
			// column after the dash.
			col := len(l.content) - len(rest) + indent
			p.lines[i] = fastLine{indent: col, content: rest, raw: l.raw}
			item, i, ok = p.block(i, col)
		default:
			item, i, ok = p.scalarLine(rest, i, indent)
		}
		if !ok {
			return nil, 0, false
		}
		p.values = append(p.values, item)
	}
	p.members(v, from, 0, false)
	return v, i, true
}

func (p *fastParser) mapping(i, indent int) (*fastValue, int, bool) {
	v := p.node(fastValue{})
	from, keysFrom := len(p.values), len(p.keys)
	var seen map[string]bool // the keys, once there are many
	for i = p.skipBlank(i); i < len(p.lines) && p.lines[i].indent == indent; i = p.skipBlank(i) {
		l := p.lines[i]
		key, rest, ok := splitKey(l.content)
		if !ok || seen[key] || (seen == nil && slices.Contains(p.keys[keysFrom:], key)) {
			return nil, 0, false // not a key line, or a duplicate key
		}
		if seen == nil && len(p.keys)-keysFrom >= 16 {
			seen = map[string]bool{}
			for _, k := range p.keys[keysFrom:] {
				seen[k] = true
			}
		}
		if seen != nil {
			seen[key] = true
		}
		var item *fastValue
		switch {
		case rest == "":
			item, i, ok = p.nested(i+1, indent, false)
		case rest == "|" || rest == "|-":
			item, i, ok = p.literal(i+1, indent, rest == "|-")
		default:
			item, i, ok = p.scalarLine(rest, i, indent)
		}
		if !ok {
			return nil, 0, false
		}
		p.keys = append(p.keys, key)
		p.values = append(p.values, item)
	}
	if i < len(p.lines) && p.lines[i].indent > indent {
		return nil, 0, false
	}
	p.members(v, from, keysFrom, true)
	return v, i, true
}

// nested parses the value of a key or dash with nothing after it: a block
// more indented, a sequence at the key's own indent (YAML allows
// "key:\n- item"), or null.
func (p *fastParser) nested(i, indent int, inSequence bool) (*fastValue, int, bool) {
	j := p.skipBlank(i)
	if j < len(p.lines) {
		l := p.lines[j]
		if l.indent > indent {
			return p.block(j, l.indent)
		}
		if !inSequence && l.indent == indent && (l.content == "-" || strings.HasPrefix(l.content, "- ")) {
			return p.sequence(j, indent)
		}
	}
	return p.node(fastValue{json: "null"}), i, true
}

// scalarLine reads the scalar rest of line i, under a key or dash at
// indent, which must end on that line.
func (p *fastParser) scalarLine(rest string, i, indent int) (*fastValue, int, bool) {
	item, ok := scalar(rest)
	if !ok || p.continues(i+1, indent) {
		return nil, 0, false
	}
	return p.node(item), i + 1, true
}

// continues says whether line i continues a scalar of a key or dash at
// indent (a multi-line plain scalar), which this reader leaves to yaml.v2.
func (p *fastParser) continues(i, indent int) bool {
	j := p.skipBlank(i)
	return j < len(p.lines) && p.lines[j].indent > indent
}

// literal parses a literal block scalar after a key at indent: the lines
// after it that are empty or more indented, past the first one's
// indentation; "|" keeps one final line break, "|-" none. Lines of spaces
// alone, and empty lines before the first, are left to yaml.v2.
func (p *fastParser) literal(i, indent int, strip bool) (*fastValue, int, bool) {
	var text []string
	col, last := -1, -1
	for ; i < len(p.lines); i++ {
		raw := p.lines[i].raw
		if raw == "" {
			if col < 0 {
				return nil, 0, false
			}
			text = append(text, "")
			continue
		}
		lead := len(raw) - len(strings.TrimLeft(raw, " "))
		if lead == len(raw) {
			return nil, 0, false
		}
		if lead <= indent {
			break
		}
		if col < 0 {
			col = lead
		}
		if lead < col || strings.ContainsRune(raw, '\t') {
			return nil, 0, false
		}
		text = append(text, raw[col:])
		last = i
	}
	end := i
	for len(text) > 0 && text[len(text)-1] == "" {
		text = text[:len(text)-1]
	}
	if len(text) == 0 {
		return nil, 0, false
	}
	s := strings.Join(text, "\n")
	if !strip && (last < len(p.lines)-1 || !p.noFinalBreak) {
		s += "\n" // clip: the last line's break, when it has one
	}
	return p.node(fastValue{text: s, quoted: true}), end, true
}

// jsonText is v as JSON text; "null" for no value.
func (v *fastValue) jsonText() []byte {
	if v == nil {
		return []byte("null")
	}
	var out bytes.Buffer
	v.write(&out)
	return out.Bytes()
}

// write writes v as JSON, mapping keys sorted as encoding/json sorts them
// (yaml.v2's JSON does too).
func (v *fastValue) write(out *bytes.Buffer) {
	switch {
	case v.quoted:
		writeJSONString(out, v.text)
	case v.json != "":
		out.WriteString(v.json)
	case v.seq:
		out.WriteByte('[')
		for i, e := range v.values {
			if i > 0 {
				out.WriteByte(',')
			}
			e.write(out)
		}
		out.WriteByte(']')
	default:
		out.WriteByte('{')
		v.writeMembers(out)
		out.WriteByte('}')
	}
}

// writeMembers writes a mapping's members in the order of their keys.
// Manifests written by tools have their keys sorted already.
func (v *fastValue) writeMembers(out *bytes.Buffer) {
	member := func(n, i int) {
		if n > 0 {
			out.WriteByte(',')
		}
		writeJSONString(out, v.keys[i])
		out.WriteByte(':')
		v.values[i].write(out)
	}
	if slices.IsSorted(v.keys) {
		for i := range v.keys {
			member(i, i)
		}
		return
	}
	order := make([]int, len(v.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(v.keys[a], v.keys[b]) })
	for n, i := range order {
		member(n, i)
	}
}
