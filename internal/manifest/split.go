package manifest

// Reading a List past the document limit item by item, without parsing it:
// kubectl writes a List as one document, so a dump of a large cluster is
// one document of many megabytes, made of objects each far below the limit.
//
// YAML: the List's items are a block sequence under a top-level "items:"
// line, as kubectl writes them:
//
//	items:
//	- apiVersion: v1      <- an entry: "-" at the column of the first entry
//	  kind: Service       <- more indented: the same item
//	kind: List            <- less indented, or not "-": the items end
//
// Each item is its lines with its "-" turned into a space, which leaves a
// mapping indented as a whole, as YAML allows. The lines are only
// classified by their indentation and first characters: YAML that places
// an item's lines otherwise (a flow collection continued less indented,
// anchors used across items) is read wrongly, and its items fail to decode
// one by one. Documents within the limit are never split.
//
// JSON: the elements of the array that is the value of the top-level
// "items" key, found by following strings and brackets byte by byte. The
// List without its items is the rest, with "items": [].

import "bytes"

// parts collects a split document: the current item and the rest, each
// within the limit.
type parts struct {
	emit     func(piece)
	limit    int
	rest     []byte // the document without its items
	restSize int
	item     []byte
	itemSize int
	inItem   bool
	index    int // of the current item
}

func (p *parts) putRest(b []byte) {
	p.restSize += len(b)
	if p.restSize <= p.limit {
		p.rest = appendDoubling(p.rest, b)
	}
}

func (p *parts) putItem(b []byte) {
	p.itemSize += len(b)
	if p.itemSize <= p.limit {
		p.item = appendDoubling(p.item, b)
	}
}

func (p *parts) startItem() {
	p.finishItem()
	p.inItem = true
}

func (p *parts) finishItem() {
	if !p.inItem {
		return
	}
	if p.itemSize > p.limit {
		p.emit(piece{kind: listItem, item: p.index, err: &LimitError{Limit: "DocumentBytes", Max: p.limit, Found: p.itemSize, What: "the item"}})
	} else {
		p.emit(piece{kind: listItem, item: p.index, data: p.item})
	}
	p.index++
	p.item, p.itemSize, p.inItem = nil, 0, false
}

func (p *parts) finish() {
	p.finishItem()
	if p.restSize > p.limit {
		p.emit(piece{kind: listRest, err: &LimitError{Limit: "DocumentBytes", Max: p.limit, Found: p.restSize, What: "the List without its items"}})
		return
	}
	p.emit(piece{kind: listRest, data: p.rest})
}

// Where a List's bytes are, as they are read.
const (
	beforeItems = iota
	inItems
	afterItems
)

// yamlSplit splits a YAML List by its lines.
type yamlSplit struct {
	parts
	state   int
	col     int  // the column of the entries' "-"; -1 until the first
	atStart bool // the next byte begins a line
	dest    int  // where the current line goes: toRest, toItem or toNowhere
	entry   bool // the current line begins an item
}

const (
	toRest = iota
	toItem
	toNowhere
)

func (s *yamlSplit) started() bool { return s.col >= 0 }

func (s *yamlSplit) write(p []byte) {
	for len(p) > 0 {
		n := len(p)
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			n = i + 1
		}
		seg := p[:n]
		first := s.atStart
		if first {
			s.classify(seg)
		}
		switch s.dest {
		case toRest:
			s.putRest(seg)
		case toItem:
			s.putItem(seg)
			if first && s.entry && s.itemSize <= s.limit {
				s.item[len(s.item)-len(seg)+s.col] = ' ' // the entry's "-"
			}
		}
		s.atStart = seg[len(seg)-1] == '\n'
		p = p[n:]
	}
}

// classify decides where the line beginning line goes.
func (s *yamlSplit) classify(line []byte) {
	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	rest := line[indent:]
	s.entry = false
	switch s.state {
	case beforeItems:
		if indent == 0 && isItemsKey(rest) {
			s.state, s.dest = inItems, toNowhere
			return
		}
		s.dest = toRest
	case inItems:
		if len(rest) == 0 || rest[0] == '\n' || rest[0] == '\r' || rest[0] == '#' {
			if s.dest != toItem {
				s.dest = toNowhere
			}
			return
		}
		isEntry := rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t' || rest[1] == '\r' || rest[1] == '\n')
		if s.col < 0 && isEntry {
			s.col = indent
		}
		switch {
		case isEntry && indent == s.col:
			s.startItem()
			s.dest, s.entry = toItem, true
		case s.col >= 0 && indent > s.col && s.inItem:
			s.dest = toItem
		default:
			s.finishItem()
			s.state, s.dest = afterItems, toRest
		}
	default:
		s.dest = toRest
	}
}

// isItemsKey reports whether the rest of a line is the key "items" with
// nothing after it but a comment: the start of a block sequence.
func isItemsKey(rest []byte) bool {
	const key = "items:"
	if len(rest) < len(key) || string(rest[:len(key)]) != key {
		return false
	}
	for _, c := range rest[len(key):] {
		switch c {
		case ' ', '\t', '\r', '\n':
		case '#':
			return true
		default:
			return false
		}
	}
	return true
}

// jsonSplit splits a JSON List by following its strings and brackets.
type jsonSplit struct {
	parts
	state    int
	depth    int
	inString bool
	escaped  bool
	str      []byte // the start of the last string at depth 1
	lastKey  bool   // the last string at depth 1 was "items" and a ":" followed
}

func (s *jsonSplit) started() bool { return s.state != beforeItems }

func (s *jsonSplit) write(p []byte) {
	for _, c := range p {
		s.byte(c)
	}
}

func (s *jsonSplit) byte(c byte) {
	elem := s.state == inItems && (s.depth > 2 || (s.depth == 2 && s.inItem))
	if s.inString {
		s.put(elem, c)
		switch {
		case s.escaped:
			s.escaped = false
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.inString = false
		case s.depth == 1 && len(s.str) < 8:
			s.str = append(s.str, c)
		}
		return
	}
	if s.state == inItems && s.depth == 2 {
		switch c {
		case ' ', '\t', '\r', '\n':
			s.put(s.inItem, c)
			return
		case ',':
			s.finishItem()
			return
		case ']':
			s.finishItem()
			s.state, s.depth = afterItems, 1
			s.putRest([]byte{c})
			return
		}
		if !s.inItem {
			s.startItem()
			elem = true
		}
	}
	s.put(elem, c)
	switch c {
	case '"':
		s.inString = true
		if s.depth == 1 {
			s.str = s.str[:0]
		}
	case ':':
		s.lastKey = s.depth == 1 && string(s.str) == "items"
	case '{', '[':
		if c == '[' && s.depth == 1 && s.lastKey && s.state == beforeItems {
			s.state = inItems
		}
		s.depth++
	case '}', ']':
		s.depth--
	}
	if c != ':' && c != ' ' && c != '\t' && c != '\r' && c != '\n' {
		s.lastKey = false // "items" is followed by another value than an array
	}
}

func (s *jsonSplit) put(elem bool, c byte) {
	if elem {
		s.putItem([]byte{c})
	} else {
		s.putRest([]byte{c})
	}
}
