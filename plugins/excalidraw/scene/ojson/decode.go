package ojson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/dshgo/dsh/internal/jsonpointer"
)

// Limits bound what Decode accepts. Zero fields take the defaults.
type Limits struct {
	MaxBytes int64 // default 64 MiB
	MaxDepth int   // default 64
}

const (
	defaultMaxBytes = 64 << 20
	defaultMaxDepth = 64
)

// Decode parses one JSON value. Strings must be valid UTF-8 (lone
// surrogate escapes become U+FFFD, as Go strings cannot hold them).
func Decode(data []byte, lim Limits) (any, error) {
	return decode(data, lim, len(data) >= cachesFrom)
}

// decode is Decode, with the caches of repeated names and values when
// caches is set (they cost more than they save on small inputs).
func decode(data []byte, lim Limits, caches bool) (any, error) {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = defaultMaxBytes
	}
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = defaultMaxDepth
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, &Error{Code: ErrTooLarge, Detail: strconv.Itoa(len(data)) + " bytes, limit " + strconv.FormatInt(lim.MaxBytes, 10)}
	}
	// A member name and its value take ten bytes at the least: a small
	// document (one element an agent sent) gets a map its size, not the
	// sixty-four names a drawing's elements share.
	d := &decoder{data: data, maxDepth: lim.MaxDepth, keys: make(map[string]internedKey, min(64, len(data)/10))}
	if caches {
		d.recent = new([recentSize]recentValue)
		d.byTag = new([256][4]string)
		d.members, d.memberCap = &memberNode{}, memberNodes
	}
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, d.fail(ErrSyntax, "data after the value")
	}
	return v, nil
}

type decoder struct {
	data     []byte
	pos      int
	maxDepth int
	path     []pathToken // for error pointers
	// keys interns member names: a drawing repeats the same thirty names
	// in every element, and one string each saves most of the decoder's
	// allocations. Only names that passed the unsafe-key check are kept.
	keys map[string]internedKey
	// byTag holds the first interned names of each tag, for finding them
	// without hashing.
	byTag *[256][4]string
	// The members and entries of the containers being read, innermost
	// last: a container is copied out, at its exact size, when it ends.
	mkeys []string
	mtags []uint8
	vals  []any
	// text holds the bytes of short strings and numbers, many to an
	// allocation; bytes once written there are never changed (the strings
	// point at them).
	text []byte
	esc  []byte // a string's unescaped bytes, reused
	// recent remembers short strings and numbers already boxed, by hash:
	// drawings repeat the same colors, styles, types and numbers in every
	// element, and a value found here costs neither a copy nor a box.
	recent *[recentSize]recentValue
	// members is the root of a trie of the member lists read so far
	// (nil for small inputs). An object whose names follow a path of it
	// needs no lookups and no duplicate check (the path's names were
	// checked when it was made), and ends with the list's shared keys.
	members   *memberNode
	memberCap int // nodes the trie may still grow
}

// memberNode is a member name in the trie of member lists.
type memberNode struct {
	key  string // a plainString
	tag  uint8
	kids []*memberNode
	// keys and tags are the list that ends here, once an object has:
	// shared by every object with this list, their capacity is their
	// length (see adopt).
	keys []string
	tags []uint8
	list *memberList
}

const (
	memberNodes = 4096 // the trie's size limit
	memberKids  = 32   // and a node's
)

// next returns the child of n for name k, made if need be, or nil when
// the trie cannot hold it.
func (d *decoder) next(n *memberNode, k string, t uint8) *memberNode {
	if n == nil {
		return nil
	}
	for _, c := range n.kids {
		if c.key == k {
			return c
		}
	}
	if d.memberCap == 0 || len(n.kids) == memberKids || !plainString(k) {
		return nil
	}
	d.memberCap--
	c := &memberNode{key: k, tag: t}
	n.kids = append(n.kids, c)
	return c
}

const (
	recentSize = 1024
	recentMax  = 32       // longest string remembered
	cachesFrom = 16 << 10 // input size from which the caches are used
)

type recentValue struct {
	s string
	v any
}

// pathToken is one step of the pointer to the value being read: a member
// name, d.mkeys[key] (the member's name goes there before its value is
// read), or, when key < 0, an array position. No pointers: pushing one
// costs no write barrier.
type pathToken struct {
	key, index int
}

type internedKey struct {
	k   string
	tag uint8
}

const (
	textChunk = 8 << 10 // bytes of d.text allocated at once
	ownAbove  = 256     // strings longer than this get their own allocation
)

// smallInts are the json.Numbers 0 to 999, boxed once: most of a
// drawing's numbers are small integers (sizes, widths, opacity, font).
var smallInts = func() (t [1000]any) {
	for i := range t {
		t[i] = json.Number(strconv.Itoa(i))
	}
	return t
}()

// quickHash mixes a short string's length and first and last eight bytes.
func quickHash(b []byte, number bool) uint64 {
	var w0, w1 uint64
	if len(b) >= 8 {
		w0, w1 = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[len(b)-8:])
	} else {
		for _, c := range b {
			w0 = w0<<8 | uint64(c)
		}
	}
	h := (w0*0x9e3779b97f4a7c15 ^ w1*0xc2b2ae3d27d4eb4f ^ uint64(len(b))) * 0x165667b19e3779f9
	if number {
		h = ^h
	}
	return h >> 40
}

// boxed returns b as a string or json.Number in an interface, from
// d.recent when it was read lately.
func (d *decoder) boxed(b []byte, number bool) any {
	if d.recent == nil || len(b) > recentMax || len(b) == 0 {
		if number {
			return json.Number(d.save(b))
		}
		return d.save(b)
	}
	r := &d.recent[quickHash(b, number)%recentSize]
	if r.s == string(b) && r.v != nil {
		if _, isNumber := r.v.(json.Number); isNumber == number {
			return r.v
		}
	}
	r.s = d.save(b)
	if number {
		r.v = json.Number(r.s)
	} else {
		r.v = r.s
	}
	return r.v
}

// save returns b as a string, copied into d.text when it is short.
func (d *decoder) save(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > ownAbove {
		return string(b)
	}
	if cap(d.text)-len(d.text) < len(b) {
		d.text = make([]byte, 0, textChunk)
	}
	n := len(d.text)
	d.text = append(d.text, b...)
	return unsafe.String(&d.text[n], len(b))
}

// key reads a member name, interned, with its tag. A name not seen
// before is checked against unsafeKeys.
func (d *decoder) key() (string, uint8, error) {
	start := d.pos + 1
	if d.byTag != nil {
		// Names in byTag have no quote, backslash or control character:
		// bytes up to the next quote that equal one are that name.
		if n := bytes.IndexByte(d.data[start:], '"'); n >= 0 {
			raw := d.data[start : start+n]
			t := tagOf(raw)
			for _, k := range &d.byTag[t] {
				if k == string(raw) && k != "" {
					d.pos = start + n + 1
					return k, t, nil
				}
			}
		}
	}
	for i := start; i < len(d.data); i++ {
		c := d.data[i]
		if c == '"' {
			if k, ok := d.keys[string(d.data[start:i])]; ok {
				d.pos = i + 1
				return k.k, k.tag, nil
			}
			break
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	b, err := d.str()
	if err != nil {
		return "", 0, err
	}
	k := string(b)
	if unsafeKeys[k] {
		return "", 0, d.fail(ErrUnsafeKey, strconv.Quote(k))
	}
	t := tagOf(k)
	if len(d.keys) < 4096 {
		d.keys[k] = internedKey{k, t}
		if d.byTag != nil && k != "" && plainString(k) {
			if ways := &d.byTag[t]; ways[len(ways)-1] == "" {
				copy(ways[1:], ways[:])
				ways[0] = k
			}
		}
	}
	return k, t, nil
}

// plainString reports whether s holds no byte str would have to unescape
// (quote, backslash, control characters).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			return false
		}
	}
	return true
}

func (d *decoder) fail(code error, detail string) *Error {
	var b strings.Builder
	for _, p := range d.path {
		b.WriteByte('/')
		if p.key < 0 {
			b.WriteString(strconv.Itoa(p.index))
		} else {
			b.WriteString(jsonpointer.Escape(d.mkeys[p.key]))
		}
	}
	return &Error{Code: code, Offset: d.pos, Pointer: b.String(), Detail: detail}
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case '\n':
			d.pos++
			// indentation: the spaces eight at a time, counted
			for d.pos+8 <= len(d.data) {
				if x := binary.LittleEndian.Uint64(d.data[d.pos:]) ^ (' ' * lsb); x != 0 {
					d.pos += bits.TrailingZeros64(x) >> 3
					break
				}
				d.pos += 8
			}
		case ' ', '\t', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.fail(ErrSyntax, "unexpected end of input")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		b, err := d.str()
		if err != nil {
			return nil, err
		}
		return d.boxed(b, false), nil
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	}
	return nil, d.fail(ErrSyntax, "unexpected character "+strconv.QuoteRune(rune(d.data[d.pos])))
}

func (d *decoder) literal(lit string) error {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		return d.fail(ErrSyntax, "invalid literal")
	}
	d.pos += len(lit)
	return nil
}

func (d *decoder) object(depth int) (any, error) {
	if depth > d.maxDepth {
		return nil, d.fail(ErrTooDeep, "limit "+strconv.Itoa(d.maxDepth))
	}
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return &Object{keys: []string{}, vals: []any{}}, nil
	}
	base, vbase := len(d.mkeys), len(d.vals)
	node := d.members
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.fail(ErrSyntax, "expected a member name")
		}
		var k string
		var t uint8
		found := false
		if node != nil {
			// A plain name followed by a quote is that name.
			for _, c := range node.kids {
				if end := d.pos + 1 + len(c.key); end < len(d.data) && d.data[end] == '"' && string(d.data[d.pos+1:end]) == c.key {
					k, t, node, found = c.key, c.tag, c, true
					d.pos = end + 1
					break
				}
			}
		}
		if !found {
			var err error
			if k, t, err = d.key(); err != nil {
				return nil, err
			}
			if findTagged(d.mkeys[base:], d.mtags[base:], k, t) >= 0 {
				return nil, d.fail(ErrDuplicateKey, strconv.Quote(k))
			}
			node = d.next(node, k, t)
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.fail(ErrSyntax, "expected ':'")
		}
		d.pos++
		d.skipSpace()
		at := pathToken{key: len(d.mkeys)}
		d.mkeys = append(d.mkeys, k)
		d.mtags = append(d.mtags, t)
		more, err := d.item(depth, at, '}')
		switch {
		case err != nil:
			return nil, err
		case !more:
			var keys []string
			var tags []uint8
			var list *memberList
			if node != nil && node.keys != nil {
				keys, tags, list = node.keys, node.tags, node.list
			} else {
				keys = make([]string, len(d.mkeys)-base)
				copy(keys, d.mkeys[base:])
				if len(keys) >= tagsFrom {
					tags = make([]uint8, len(keys))
					copy(tags, d.mtags[base:])
				}
				if node != nil {
					if len(keys) <= indexAbove {
						list = newMemberList(keys)
					}
					node.keys, node.tags, node.list = keys, tags, list
				}
			}
			o := adopt(keys, tags, list, d.vals[vbase:])
			d.mkeys, d.mtags, d.vals = d.mkeys[:base], d.mtags[:base], d.vals[:vbase]
			return o, nil
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	if depth > d.maxDepth {
		return nil, d.fail(ErrTooDeep, "limit "+strconv.Itoa(d.maxDepth))
	}
	d.pos++ // [
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return []any{}, nil
	}
	base := len(d.vals)
	for i := 0; ; i++ {
		d.skipSpace()
		more, err := d.item(depth, pathToken{key: -1, index: i}, ']')
		switch {
		case err != nil:
			return nil, err
		case !more:
			a := make([]any, len(d.vals)-base)
			copy(a, d.vals[base:])
			d.vals = d.vals[:base]
			return a, nil
		}
	}
}

// item decodes the value of an object's member or an array's item, at
// path token at, onto d.vals, and what follows it: more after a ',',
// not more after the closing end ('}' or ']').
func (d *decoder) item(depth int, at pathToken, end byte) (more bool, err error) {
	d.path = append(d.path, at)
	v, err := d.value(depth)
	if err != nil {
		return false, err
	}
	d.path = d.path[:len(d.path)-1]
	d.vals = append(d.vals, v)
	d.skipSpace()
	if d.pos >= len(d.data) {
		if end == '}' {
			return false, d.fail(ErrSyntax, "unterminated object")
		}
		return false, d.fail(ErrSyntax, "unterminated array")
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return true, nil
	case end:
		d.pos++
		return false, nil
	}
	return false, d.fail(ErrSyntax, "expected ',' or '"+string(rune(end))+"'")
}

func (d *decoder) number() (any, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return nil, d.fail(ErrSyntax, "invalid number")
	}
	if d.data[d.pos] == '0' {
		d.pos++
	} else if d.data[d.pos] >= '1' && d.data[d.pos] <= '9' {
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
	} else {
		return nil, d.fail(ErrSyntax, "invalid number")
	}
	integer := d.pos
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		n := d.pos
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
		if d.pos == n {
			return nil, d.fail(ErrSyntax, "invalid number")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		n := d.pos
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
		if d.pos == n {
			return nil, d.fail(ErrSyntax, "invalid number")
		}
	}
	if d.pos == integer && d.pos-start <= 3 && d.data[start] != '-' {
		n := 0
		for _, c := range d.data[start:d.pos] {
			n = n*10 + int(c-'0')
		}
		return smallInts[n], nil
	}
	return d.boxed(d.data[start:d.pos], true), nil
}

// str reads a string: its bytes in the input, or unescaped into d.esc.
// Either way they are only valid until the next call.
func (d *decoder) str() ([]byte, error) {
	d.pos++ // opening quote
	start := d.pos
	// Fast path: no escapes, valid UTF-8. Eight bytes at a time up to the
	// first that is not plain, then one by one.
	var high uint64 // bits of the bytes read (and a few more): msb clear, all ASCII
	for d.pos+8 <= len(d.data) {
		x := binary.LittleEndian.Uint64(d.data[d.pos:])
		high |= x
		if m := special8(x); m != 0 {
			d.pos += bits.TrailingZeros64(m) >> 3
			break
		}
		d.pos += 8
	}
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if plain[c] {
			high |= uint64(c)
			d.pos++
			continue
		}
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if high&msb != 0 && !utf8.Valid(s) {
				return nil, d.fail(ErrSyntax, "invalid UTF-8 in string")
			}
			return s, nil
		}
		if c == '\\' {
			break
		}
		return nil, d.fail(ErrSyntax, "control character in string")
	}
	b := append(d.esc[:0], d.data[start:d.pos]...)
	defer func() { d.esc = b[:0] }()
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if !utf8.Valid(b) {
				return nil, d.fail(ErrSyntax, "invalid UTF-8 in string")
			}
			return b, nil
		case c < 0x20:
			return nil, d.fail(ErrSyntax, "control character in string")
		case c != '\\':
			b = append(b, c)
			d.pos++
			continue
		}
		d.pos++
		if d.pos >= len(d.data) {
			break
		}
		e := d.data[d.pos]
		d.pos++
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return nil, d.fail(ErrSyntax, "invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					save := d.pos
					d.pos += 2
					if lo, ok := d.hex4(); ok {
						if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
							r2 = dec
						} else {
							d.pos = save
						}
					} else {
						d.pos = save
					}
				}
				r = r2
			}
			b = utf8.AppendRune(b, r)
		default:
			return nil, d.fail(ErrSyntax, "invalid escape")
		}
	}
	return nil, d.fail(ErrSyntax, "unterminated string")
}

func (d *decoder) hex4() (rune, bool) {
	if len(d.data)-d.pos < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := d.data[d.pos+i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	d.pos += 4
	return r, true
}
