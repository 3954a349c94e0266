package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// errNotCanonical is why canonical could not write a value out: it is not
// one JSON value, or it holds what RFC 8785 has no form for (invalid
// UTF-8, a lone surrogate, a duplicate member name).
var errNotCanonical = errors.New("journal: no canonical form")

// canonicalizer writes a JSON value in its RFC 8785 form: no whitespace,
// each object's members sorted by their names' UTF-16 code units, every
// string with the fewest escapes, every number as ECMAScript writes its
// float64. It is Fingerprint's, one pass over the bytes with no tree, and
// is kept and reused (canonicalizers), so a thousand elements cost no
// allocation each.
//
// It is not the tools registry's canonical form (plugins/tools,
// canonical_bytes.go), which is what an agent reads: that one copies
// numbers as written and keeps a repeated name's last value. A
// fingerprint must be RFC 8785's, the form every journal entry written
// so far was hashed in, so 1.0 and 1 are one element and a repeated name
// has no fingerprint of its own.
type canonicalizer struct {
	in  []byte
	pos int
	out []byte
	// scratch holds an object's members while they are put in order.
	scratch []byte
	members []member
	// name holds a string's unescaped bytes while it is read.
	name []byte
	// names holds the member names (unescaped) of the objects being
	// read, innermost last; members point into it.
	names []byte
	// orders remembers, for the objects' name sequences seen before (the
	// names length-prefixed, one after another), the order that sorts
	// them: a board's elements mostly share a handful of sequences.
	orders map[string][]uint8
	key    []byte
	sorted []member
}

// maxOrders bounds a canonicalizer's remembered orders.
const maxOrders = 256

// member is one object member, its value written out in canonical form
// at out[start:end] and its name (unescaped) at names[nameStart:nameEnd],
// or, when plain, in in.
type member struct {
	// prefix is the name's first eight bytes, big-endian and zero-padded,
	// when they are ASCII (ascii): two such prefixes that differ order
	// their names as the names do, with no look at the names.
	prefix             uint64
	start, end         int32
	nameStart, nameEnd int32
	// plain says the name had no escapes: it is in[nameStart:nameEnd].
	plain, ascii bool
	// order is the member's place in its object as read (up to 256
	// members; sort remembers no order for more).
	order uint8
}

// compareMembers orders two members by name, by their prefixes where
// those tell them apart.
func (c *canonicalizer) compareMembers(a, b member) int {
	if a.ascii && b.ascii && a.prefix != b.prefix {
		if a.prefix < b.prefix {
			return -1
		}
		return 1
	}
	return compareUTF16(c.nameOf(a), c.nameOf(b))
}

// withPrefix sets m's prefix from its name.
func (c *canonicalizer) withPrefix(m member) member {
	name := c.nameOf(m)
	m.ascii = true
	for i := range 8 {
		m.prefix <<= 8
		if i < len(name) {
			if name[i] >= utf8.RuneSelf {
				m.ascii = false
			}
			m.prefix |= uint64(name[i])
		}
	}
	return m
}

var canonicalizers = sync.Pool{New: func() any { return new(canonicalizer) }}

// canonical is raw in RFC 8785 form, appended to dst, or errNotCanonical.
func (c *canonicalizer) canonical(dst, raw []byte) ([]byte, error) {
	c.in, c.pos, c.out = raw, 0, dst
	c.members, c.names = c.members[:0], c.names[:0]
	defer func() { c.in = nil }()
	c.skipSpace()
	if err := c.value(); err != nil {
		return dst, err
	}
	c.skipSpace()
	if c.pos != len(c.in) {
		return dst, errNotCanonical
	}
	return c.out, nil
}

func (c *canonicalizer) skipSpace() {
	for c.pos < len(c.in) {
		switch c.in[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// literal consumes word (true, false, null) and writes it.
func (c *canonicalizer) literal(word string) error {
	if len(c.in)-c.pos < len(word) || string(c.in[c.pos:c.pos+len(word)]) != word {
		return errNotCanonical
	}
	c.pos += len(word)
	c.out = append(c.out, word...)
	return nil
}

func (c *canonicalizer) value() error {
	if c.pos >= len(c.in) {
		return errNotCanonical
	}
	switch b := c.in[c.pos]; {
	case b == '{':
		return c.object()
	case b == '[':
		return c.array()
	case b == '"':
		if end, ok := c.plain(); ok {
			c.out = append(c.out, c.in[c.pos:end+1]...)
			c.pos = end + 1
			return nil
		}
		s, err := c.str(c.name[:0])
		if err != nil {
			return err
		}
		c.name = s
		c.out = ojson.AppendString(c.out, string(s))
		return nil
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || (b >= '0' && b <= '9'):
		return c.number()
	}
	return errNotCanonical
}

func (c *canonicalizer) array() error {
	c.pos++ // [
	c.out = append(c.out, '[')
	c.skipSpace()
	if c.pos < len(c.in) && c.in[c.pos] == ']' {
		c.pos++
		c.out = append(c.out, ']')
		return nil
	}
	for {
		c.skipSpace()
		if err := c.value(); err != nil {
			return err
		}
		c.skipSpace()
		if c.pos >= len(c.in) {
			return errNotCanonical
		}
		switch c.in[c.pos] {
		case ',':
			c.pos++
			c.out = append(c.out, ',')
		case ']':
			c.pos++
			c.out = append(c.out, ']')
			return nil
		default:
			return errNotCanonical
		}
	}
}

// object writes each member's value out as it reads it, then puts the
// members in order: their canonical bytes are copied to scratch and
// written back sorted, each after its name.
func (c *canonicalizer) object() error {
	c.pos++ // {
	base, namesBase := len(c.members), len(c.names)
	start := len(c.out)
	c.skipSpace()
	if c.pos < len(c.in) && c.in[c.pos] == '}' {
		c.pos++
		c.out = append(c.out, '{', '}')
		return nil
	}
	for {
		c.skipSpace()
		if c.pos >= len(c.in) || c.in[c.pos] != '"' {
			return errNotCanonical
		}
		m := member{}
		if end, ok := c.plain(); ok {
			m.nameStart, m.nameEnd, m.plain = int32(c.pos+1), int32(end), true
			c.pos = end + 1
		} else {
			s, err := c.str(c.name[:0])
			if err != nil {
				return err
			}
			c.name = s
			m.nameStart = int32(len(c.names))
			c.names = append(c.names, s...)
			m.nameEnd = int32(len(c.names))
		}
		c.skipSpace()
		if c.pos >= len(c.in) || c.in[c.pos] != ':' {
			return errNotCanonical
		}
		c.pos++
		c.skipSpace()
		vs := len(c.out)
		if err := c.value(); err != nil {
			return err
		}
		m.start, m.end = int32(vs), int32(len(c.out))
		c.members = append(c.members, c.withPrefix(m))
		c.skipSpace()
		if c.pos >= len(c.in) {
			return errNotCanonical
		}
		if c.in[c.pos] == '}' {
			c.pos++
			break
		}
		if c.in[c.pos] != ',' {
			return errNotCanonical
		}
		c.pos++
	}
	ms, err := c.sort(c.members[base:])
	if err != nil {
		return err
	}
	c.scratch = append(c.scratch[:0], c.out[start:]...)
	c.out = append(c.out[:start], '{')
	for i, m := range ms {
		if i > 0 {
			c.out = append(c.out, ',')
		}
		c.out = ojson.AppendString(c.out, string(c.nameOf(m)))
		c.out = append(c.out, ':')
		c.out = append(c.out, c.scratch[int(m.start)-start:int(m.end)-start]...)
	}
	c.out = append(c.out, '}')
	c.members, c.names = c.members[:base], c.names[:namesBase]
	return nil
}

// sort puts ms in canonical order: a remembered order when their names
// were seen in this sequence before, or sorted (and then remembered),
// refused when two names are the same.
func (c *canonicalizer) sort(ms []member) ([]member, error) {
	if len(ms) < 2 {
		return ms, nil
	}
	c.key = c.key[:0]
	for _, m := range ms {
		name := c.nameOf(m)
		c.key = binary.AppendUvarint(c.key, uint64(len(name)))
		c.key = append(c.key, name...)
	}
	if order, ok := c.orders[string(c.key)]; ok {
		c.sorted = c.sorted[:0]
		for _, i := range order {
			c.sorted = append(c.sorted, ms[i])
		}
		return c.sorted, nil
	}
	for i := range ms {
		ms[i].order = uint8(i)
	}
	slices.SortFunc(ms, c.compareMembers)
	for i := 1; i < len(ms); i++ {
		if string(c.nameOf(ms[i-1])) == string(c.nameOf(ms[i])) {
			return nil, errNotCanonical
		}
	}
	if len(ms) <= math.MaxUint8+1 && len(c.orders) < maxOrders {
		order := make([]uint8, len(ms))
		for i, m := range ms {
			order[i] = m.order
		}
		if c.orders == nil {
			c.orders = make(map[string][]uint8)
		}
		c.orders[string(c.key)] = order
	}
	return ms, nil
}

// nameOf is m's name, unescaped.
func (c *canonicalizer) nameOf(m member) []byte {
	if m.plain {
		return c.in[m.nameStart:m.nameEnd]
	}
	return c.names[m.nameStart:m.nameEnd]
}

// plain reports whether the string at pos is already in canonical form
// (valid UTF-8, no escape, no control character), and where its closing
// quote is.
func (c *canonicalizer) plain() (end int, ok bool) {
	i := c.pos + 1
	ascii := true
	for ; i < len(c.in); i++ {
		b := c.in[i]
		if b == '"' {
			break
		}
		if b == '\\' || b < 0x20 {
			return 0, false
		}
		if b >= utf8.RuneSelf {
			ascii = false
		}
	}
	if i >= len(c.in) || (!ascii && !utf8.Valid(c.in[c.pos+1:i])) {
		return 0, false
	}
	return i, true
}

// str reads a string at pos and appends its unescaped bytes to dst: valid
// UTF-8, every \u escape a code point (a surrogate only in a pair).
func (c *canonicalizer) str(dst []byte) ([]byte, error) {
	c.pos++ // "
	for {
		// The run up to the next quote, backslash or control byte is
		// copied as it is, once its UTF-8 is checked.
		run := c.pos
		for c.pos < len(c.in) {
			b := c.in[c.pos]
			if b == '"' || b == '\\' || b < 0x20 {
				break
			}
			c.pos++
		}
		if !utf8.Valid(c.in[run:c.pos]) {
			return dst, errNotCanonical
		}
		dst = append(dst, c.in[run:c.pos]...)
		if c.pos >= len(c.in) || c.in[c.pos] < 0x20 {
			return dst, errNotCanonical
		}
		if c.in[c.pos] == '"' {
			c.pos++
			return dst, nil
		}
		// A backslash.
		if c.pos+1 >= len(c.in) {
			return dst, errNotCanonical
		}
		e := c.in[c.pos+1]
		c.pos += 2
		switch e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := c.hex4()
			if !ok {
				return dst, errNotCanonical
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || c.pos+1 >= len(c.in) || c.in[c.pos] != '\\' || c.in[c.pos+1] != 'u' {
					return dst, errNotCanonical
				}
				c.pos += 2
				r2, ok := c.hex4()
				if !ok {
					return dst, errNotCanonical
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return dst, errNotCanonical
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			return dst, errNotCanonical
		}
	}
}

// hex4 reads the four hex digits of a \u escape.
func (c *canonicalizer) hex4() (rune, bool) {
	if len(c.in)-c.pos < 4 {
		return 0, false
	}
	var r rune
	for _, b := range c.in[c.pos : c.pos+4] {
		r <<= 4
		switch {
		case b >= '0' && b <= '9':
			r |= rune(b - '0')
		case b >= 'a' && b <= 'f':
			r |= rune(b - 'a' + 10)
		case b >= 'A' && b <= 'F':
			r |= rune(b - 'A' + 10)
		default:
			return 0, false
		}
	}
	c.pos += 4
	return r, true
}

// number reads a number (JSON's grammar) and writes it as ECMAScript's
// Number.prototype.toString writes the float64 nearest to it (the
// largest float64 for a number beyond its range).
func (c *canonicalizer) number() error {
	start := c.pos
	if c.in[c.pos] == '-' {
		c.pos++
	}
	switch {
	case c.pos < len(c.in) && c.in[c.pos] == '0':
		c.pos++
	case c.pos < len(c.in) && c.in[c.pos] >= '1' && c.in[c.pos] <= '9':
		c.digits()
	default:
		return errNotCanonical
	}
	if c.pos < len(c.in) && c.in[c.pos] == '.' {
		c.pos++
		if c.digits() == 0 {
			return errNotCanonical
		}
	}
	if c.pos < len(c.in) && (c.in[c.pos] == 'e' || c.in[c.pos] == 'E') {
		c.pos++
		if c.pos < len(c.in) && (c.in[c.pos] == '+' || c.in[c.pos] == '-') {
			c.pos++
		}
		if c.digits() == 0 {
			return errNotCanonical
		}
	}
	tok := c.in[start:c.pos]
	if integer := c.pos-start <= 15 && tok[len(tok)-1] >= '0' && !bytes.ContainsAny(tok, ".eE"); integer && string(tok) != "-0" {
		// An integer of 15 digits or fewer is a float64 exactly, and
		// ECMAScript writes it as JSON does.
		c.out = append(c.out, tok...)
		return nil
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if math.IsInf(f, 0) {
		// Beyond float64's range: the nearest float64 is its largest.
		f, err = math.Copysign(math.MaxFloat64, f), nil
	}
	if err != nil {
		return errNotCanonical
	}
	c.out = appendES(c.out, f)
	return nil
}

func (c *canonicalizer) digits() int {
	n := 0
	for c.pos < len(c.in) && c.in[c.pos] >= '0' && c.in[c.pos] <= '9' {
		c.pos++
		n++
	}
	return n
}

// appendES appends f as ECMAScript writes a Number: the shortest digits
// that read back as f, in fixed notation from 1e-6 up to 1e21 and in
// exponent notation (no leading zeros in the exponent) outside it; -0 is
// written 0.
func appendES(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0')
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	// Go writes at least two exponent digits: e-07 becomes e-7.
	if n := len(dst); dst[n-4] == 'e' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst
}

// compareUTF16 orders two UTF-8 names by their UTF-16 code units, as RFC
// 8785 sorts members: code point order, except that a character beyond
// the Basic Multilingual Plane (a surrogate pair, D800–DBFF first) sorts
// before E000–FFFF.
func compareUTF16(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) - len(b)
	}
	if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
		return int(a[i]) - int(b[i])
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRune(a[i:])
	rb, _ := utf8.DecodeRune(b[i:])
	return int(utf16Unit(ra)) - int(utf16Unit(rb))
}

// utf16Unit is the first UTF-16 code unit of r.
func utf16Unit(r rune) rune {
	if r < 0x10000 {
		return r
	}
	hi, _ := utf16.EncodeRune(r)
	return hi
}
