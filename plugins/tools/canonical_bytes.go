package tools

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// canonicalBytes rewrites the JSON document src in canonical form (see
// [CanonicalJSON]) in one pass over its bytes: whitespace dropped, object
// members sorted by name (a repeated name keeps its last value, as
// decoding into a map does), strings re-escaped the canonical way,
// numbers and literals copied as written. The result is byte for byte
// encodeCanonical(decodeJSON(src)), without building the decoded tree:
// a large result is not decoded only to be encoded again.
func canonicalBytes(src []byte) ([]byte, error) {
	c := canonicalizer{src: src, dst: make([]byte, 0, len(src))}
	if err := c.document(); err != nil {
		return nil, err
	}
	return c.dst, nil
}

// canonicalResult is canonicalBytes of a handler's encoded value, as the
// agent sees it (see [Result]): null becomes {}, and an object without an
// "ok" member gets "ok":true. ok is false only when the object's own "ok"
// is false.
func canonicalResult(src []byte) (out []byte, ok bool, err error) {
	c := canonicalizer{src: src, dst: make([]byte, 0, len(src)+len(`,"ok":true`)), result: true, ok: true}
	if err := c.document(); err != nil {
		return nil, false, err
	}
	if string(c.dst) == "null" {
		return []byte(`{"ok":true}`), true, nil
	}
	return c.dst, c.ok, nil
}

// maxCanonicalDepth bounds nesting as encoding/json's decoder does.
const maxCanonicalDepth = 10000

var errBadJSON = errors.New("invalid JSON")

// canonicalizer writes src canonically into dst.
type canonicalizer struct {
	src   []byte
	pos   int
	dst   []byte
	depth int
	// stack holds the members of the objects being written, innermost
	// last; scratch holds an object's bytes while they are put in order.
	stack   []member
	scratch []byte
	// shapes are the orders reorder found for recent objects.
	shapes    []shape
	nextShape int
	// result asks for canonicalResult's treatment of a top-level object;
	// ok is then what its "ok" member says.
	result, ok bool
}

// member is one object member as written into dst: the canonical name at
// dst[name0:name1] (quotes excluded) and the whole member, name and value,
// at dst[start:end].
type member struct {
	start, name0, name1, end int
	escaped                  bool // the canonical name has a backslash
}

func (c *canonicalizer) document() error {
	c.space()
	if err := c.value(); err != nil {
		return err
	}
	c.space()
	if c.pos != len(c.src) {
		return errTrailingData
	}
	return nil
}

func (c *canonicalizer) space() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\r', '\n':
			c.pos++
		default:
			return
		}
	}
}

func (c *canonicalizer) value() error {
	if c.pos >= len(c.src) {
		return errBadJSON
	}
	switch b := c.src[c.pos]; {
	case b == '{':
		return c.object()
	case b == '[':
		return c.array()
	case b == '"':
		_, err := c.str()
		return err
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || (b >= '0' && b <= '9'):
		return c.number()
	}
	return errBadJSON
}

func (c *canonicalizer) literal(lit string) error {
	if !bytes.HasPrefix(c.src[c.pos:], []byte(lit)) {
		return errBadJSON
	}
	c.dst = append(c.dst, lit...)
	c.pos += len(lit)
	return nil
}

// number copies a number literal after checking its grammar.
func (c *canonicalizer) number() error {
	start, i, s := c.pos, c.pos, c.src
	digits := func() bool {
		n := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return errBadJSON
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return errBadJSON
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return errBadJSON
		}
	}
	c.dst = append(c.dst, s[start:i]...)
	c.pos = i
	return nil
}

func (c *canonicalizer) enter() error {
	c.depth++
	if c.depth > maxCanonicalDepth {
		return errors.New("JSON nested too deeply")
	}
	c.pos++
	c.space()
	return nil
}

func (c *canonicalizer) array() error {
	if err := c.enter(); err != nil {
		return err
	}
	c.dst = append(c.dst, '[')
	if c.pos < len(c.src) && c.src[c.pos] == ']' {
		c.pos++
		c.depth--
		c.dst = append(c.dst, ']')
		return nil
	}
	for {
		if err := c.value(); err != nil {
			return err
		}
		c.space()
		if c.pos >= len(c.src) {
			return errBadJSON
		}
		switch c.src[c.pos] {
		case ',':
			c.pos++
			c.space()
			c.dst = append(c.dst, ',')
		case ']':
			c.pos++
			c.depth--
			c.dst = append(c.dst, ']')
			return nil
		default:
			return errBadJSON
		}
	}
}

func (c *canonicalizer) object() error {
	if err := c.enter(); err != nil {
		return err
	}
	open := len(c.dst)
	c.dst = append(c.dst, '{')
	if c.pos < len(c.src) && c.src[c.pos] == '}' {
		c.pos++
		c.depth--
		if c.result && c.depth == 0 {
			c.dst = append(c.dst, `"ok":true`...)
		}
		c.dst = append(c.dst, '}')
		return nil
	}
	base := len(c.stack)
	sorted := true
	for {
		if c.pos >= len(c.src) || c.src[c.pos] != '"' {
			return errBadJSON
		}
		m := member{start: len(c.dst)}
		m.name0 = m.start + 1
		escaped, err := c.str()
		if err != nil {
			return err
		}
		m.name1, m.escaped = len(c.dst)-1, escaped
		c.space()
		if c.pos >= len(c.src) || c.src[c.pos] != ':' {
			return errBadJSON
		}
		c.pos++
		c.space()
		c.dst = append(c.dst, ':')
		if err := c.value(); err != nil {
			return err
		}
		m.end = len(c.dst)
		if n := len(c.stack); n > base && sorted && c.compareNames(c.stack[n-1], m) >= 0 {
			sorted = false
		}
		c.stack = append(c.stack, m)
		c.space()
		if c.pos >= len(c.src) {
			return errBadJSON
		}
		switch c.src[c.pos] {
		case ',':
			c.pos++
			c.space()
			c.dst = append(c.dst, ',')
		case '}':
			c.pos++
			c.depth--
			if c.result && c.depth == 0 && !c.readOK(c.stack[base:]) {
				m := member{start: len(c.dst) + 1, name0: len(c.dst) + 2, name1: len(c.dst) + 4}
				c.dst = append(c.dst, `,"ok":true`...)
				m.end = len(c.dst)
				if c.compareNames(c.stack[len(c.stack)-1], m) >= 0 {
					sorted = false
				}
				c.stack = append(c.stack, m)
			}
			if !sorted {
				c.reorder(open+1, c.stack[base:])
			}
			c.stack = c.stack[:base]
			c.dst = append(c.dst, '}')
			return nil
		default:
			return errBadJSON
		}
	}
}

// readOK sets c.ok from the last member named "ok" among members, the
// top-level object's, and reports whether there is one.
func (c *canonicalizer) readOK(members []member) bool {
	for i := len(members) - 1; i >= 0; i-- {
		m := members[i]
		if string(c.dst[m.name0:m.name1]) != "ok" {
			continue
		}
		if string(c.dst[m.name1+2:m.end]) == "false" {
			c.ok = false
		}
		return true
	}
	return false
}

// reorder rewrites the members written since from in name order, the
// last of each name only. members are the object's entries of c.stack.
func (c *canonicalizer) reorder(from int, members []member) {
	c.scratch = append(c.scratch[:0], c.dst[from:]...)
	buf := c.scratch
	for i := range members {
		m := &members[i]
		m.start, m.name0, m.name1, m.end = m.start-from, m.name0-from, m.name1-from, m.end-from
	}
	order := c.sameOrder(buf, members)
	if order == nil {
		order = make([]int, len(members))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return compareNames(buf, members[a], members[b]) })
		// Of the members of one name, the last written wins.
		kept := order[:0]
		for k, i := range order {
			if k+1 < len(order) && compareNames(buf, members[i], members[order[k+1]]) == 0 {
				continue
			}
			kept = append(kept, i)
		}
		order = kept
		c.remember(buf, members, order)
	}
	c.dst = c.dst[:from]
	for k, i := range order {
		if k > 0 {
			c.dst = append(c.dst, ',')
		}
		m := members[i]
		c.dst = append(c.dst, buf[m.start:m.end]...)
	}
}

// maxShapes is how many object shapes reorder remembers.
const maxShapes = 8

// shape is the member names of an object reorder sorted, in the sequence
// they were written, and the order it wrote them in.
type shape struct {
	names [][]byte // into bytes
	bytes []byte
	order []int
}

// sameOrder returns the order reorder found for an earlier object whose
// members had the same names in the same sequence (objects of one shape
// repeat: a scene's elements), else nil.
func (c *canonicalizer) sameOrder(buf []byte, members []member) []int {
	for i := range c.shapes {
		sh := &c.shapes[i]
		if len(sh.names) != len(members) {
			continue
		}
		same := true
		for k, m := range members {
			if !bytes.Equal(buf[m.name0:m.name1], sh.names[k]) {
				same = false
				break
			}
		}
		if same {
			return sh.order
		}
	}
	return nil
}

// remember keeps order as the order of objects with members' names.
func (c *canonicalizer) remember(buf []byte, members []member, order []int) {
	var sh *shape
	if len(c.shapes) < maxShapes {
		c.shapes = append(c.shapes, shape{})
		sh = &c.shapes[len(c.shapes)-1]
	} else {
		sh = &c.shapes[c.nextShape]
		c.nextShape = (c.nextShape + 1) % maxShapes
	}
	sh.bytes, sh.names = sh.bytes[:0], sh.names[:0]
	for _, m := range members {
		sh.bytes = append(sh.bytes, buf[m.name0:m.name1]...)
	}
	at := 0
	for _, m := range members {
		n := m.name1 - m.name0
		sh.names = append(sh.names, sh.bytes[at:at+n:at+n])
		at += n
	}
	sh.order = order
}

func (c *canonicalizer) compareNames(a, b member) int { return compareNames(c.dst, a, b) }

// compareNames orders two members written into buf by their names as
// decoded strings (bytewise, as Go compares strings).
func compareNames(buf []byte, a, b member) int {
	an, bn := buf[a.name0:a.name1], buf[b.name0:b.name1]
	if !a.escaped && !b.escaped {
		return bytes.Compare(an, bn)
	}
	return strings.Compare(unescapeCanonical(an), unescapeCanonical(bn))
}

// unescapeCanonical decodes the body of a canonical JSON string, whose
// only escapes are \" \\ \n \r \t \b \f and \u00XX, \u2028, \u2029.
func unescapeCanonical(s []byte) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			b.WriteRune(rune(hex4(s[i+1 : i+5])))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// str transcodes the string at c.pos into its canonical spelling (what
// appendString writes for the string encoding/json decodes it to) and
// reports whether that spelling has a backslash.
func (c *canonicalizer) str() (escaped bool, err error) {
	s := c.src
	i := c.pos + 1
	c.dst = append(c.dst, '"')
	start := i // first byte not yet copied
	for {
		if i >= len(s) {
			return false, errBadJSON
		}
		b := s[i]
		switch {
		case b == '"':
			c.dst = append(c.dst, s[start:i]...)
			c.dst = append(c.dst, '"')
			c.pos = i + 1
			return escaped, nil
		case b < 0x20:
			return false, errBadJSON
		case b == '\\':
			c.dst = append(c.dst, s[start:i]...)
			r, n, ok := decodeEscape(s[i:])
			if !ok {
				return false, errBadJSON
			}
			escaped = c.appendRune(r) || escaped
			i += n
			start = i
		case b < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				c.dst = append(c.dst, s[start:i]...)
				if r == utf8.RuneError {
					r = unicode.ReplacementChar // what decoding makes of a bad byte
				}
				escaped = c.appendRune(r) || escaped
				i += size
				start = i
				continue
			}
			i += size
		}
	}
}

// appendRune writes r as appendString spells it inside a string and
// reports whether that took an escape.
func (c *canonicalizer) appendRune(r rune) bool {
	switch r {
	case '"', '\\':
		c.dst = append(c.dst, '\\', byte(r))
	case '\n':
		c.dst = append(c.dst, '\\', 'n')
	case '\r':
		c.dst = append(c.dst, '\\', 'r')
	case '\t':
		c.dst = append(c.dst, '\\', 't')
	case '\b':
		c.dst = append(c.dst, '\\', 'b')
	case '\f':
		c.dst = append(c.dst, '\\', 'f')
	case '\u2028', '\u2029':
		c.dst = append(c.dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
	default:
		if r < 0x20 {
			c.dst = append(c.dst, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&0xF])
			return true
		}
		c.dst = utf8.AppendRune(c.dst, r)
		return false
	}
	return true
}

// decodeEscape decodes the escape sequence at the start of s as
// encoding/json does: a surrogate pair is one rune, a lone surrogate is
// U+FFFD. It returns the rune and the bytes it took.
func decodeEscape(s []byte) (rune, int, bool) {
	if len(s) < 2 {
		return 0, 0, false
	}
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		r := getu4(s)
		if r < 0 {
			return 0, 0, false
		}
		if utf16.IsSurrogate(r) {
			if r2 := getu4(s[6:]); r2 >= 0 {
				if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
					return dec, 12, true
				}
			}
			return unicode.ReplacementChar, 6, true
		}
		return r, 6, true
	}
	return 0, 0, false
}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	return hex4(s[2:6])
}

// hex4 decodes four hex digits, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
