// Package ojson is JSON that keeps what it read: object members in their
// order, numbers as written, and every member a reader does not know about.
//
// Excalidraw files are read and written by many programs; a reader that
// dropped or reordered fields it did not understand would damage other
// programs' data. Values are:
//
//	nil, bool, json.Number, string, []any, *Object
//
// The decoder is also the first line of defence against hostile files:
// it rejects duplicate keys, keys that would pollute a JavaScript prototype
// when a browser reads the file (`__proto__`, `constructor`, `prototype`),
// nesting deeper than a limit, and input larger than a limit.
package ojson

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"slices"
	"sync/atomic"
)

// Object is a JSON object that remembers the order of its members.
//
// Members live in two parallel slices: drawings hold millions of small
// objects, and a scan of ~30 keys costs less than building a map for each.
// An object of tagsFrom members or more also keeps one byte per key, a
// hash of it (tagOf), which a lookup scans eight at a time, comparing
// strings only where the byte matches. Decoded objects with the same
// members share their keys, tags and a memberList (a table from tag to
// position, and the keys encoded). Large objects (a scene's `files`) get
// an index. Only the writers (Set, Delete, the decoder, Clone) build and
// keep tags, list and index, so reading an object from several goroutines
// at once is safe.
type Object struct {
	keys  []string
	vals  []any
	index map[string]int // kept while len(keys) > indexAbove
	// list, for a decoded object whose member list many objects share,
	// is what the decoder worked out once for the list; dropped when the
	// keys change. (keys, vals, index and list, what a lookup reads, fill
	// one cache line.)
	list *memberList
	tags []uint8 // nil, or tagOf of each key (len(tags) == len(keys))
	// frozen objects refuse writes (see Freeze); root is the object
	// whose Freeze froze this one.
	frozen  bool
	root    *Object
	derived atomic.Pointer[any] // see Derived
}

const sharedTag = 0xff

// memberList is what the decoder works out once for a member list many
// objects share: never changed after, as the list is not.
type memberList struct {
	// positions maps a tag to the position of the key with it plus one:
	// 0 when no key has the tag, sharedTag when several do.
	positions [256]uint8
	// quoted are the keys as an indented object writes them, `"key": `.
	quoted []string
}

// newMemberList works out the list of keys (at most indexAbove).
func newMemberList(keys []string) *memberList {
	l := &memberList{quoted: make([]string, len(keys))}
	for i, k := range keys {
		t := tagOf(k)
		if l.positions[t] == 0 {
			l.positions[t] = uint8(i + 1)
		} else {
			l.positions[t] = sharedTag
		}
		l.quoted[i] = string(append(appendString(nil, k), ':', ' '))
	}
	return l
}

const (
	indexAbove = 64
	tagsFrom   = 8
)

// tagOf is a one-byte hash of a key: its length and three of its bytes.
// The multipliers were chosen so that no two member names of any object
// in the shared corpus of real drawings share a tag.
func tagOf[S string | []byte](k S) uint8 {
	n := len(k)
	if n == 0 {
		return 0
	}
	h := uint32(n)*119 + uint32(k[0])*71 + uint32(k[n-1])*205 + uint32(k[n>>1])*201
	return uint8(h ^ h>>8)
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// findTagged finds k among keys by their tags, eight at a time: a byte of
// x is zero where the tag matches (the borrow can flag a byte above a
// match too; the string comparison sorts that out).
func findTagged(keys []string, tags []uint8, k string, t uint8) int {
	keys = keys[:len(tags)]
	pat := uint64(t) * lsb
	i := 0
	for ; i+8 <= len(tags); i += 8 {
		x := binary.LittleEndian.Uint64(tags[i:]) ^ pat
		for m := (x - lsb) &^ x & msb; m != 0; m &= m - 1 {
			if j := i + bits.TrailingZeros64(m)>>3; keys[j] == k {
				return j
			}
		}
	}
	for ; i < len(tags); i++ {
		if tags[i] == t && keys[i] == k {
			return i
		}
	}
	return -1
}

// adopt makes an object of members the decoder collected: it takes keys,
// tags (one tag per key, or nil under tagsFrom) and list (or nil), and
// copies vals. keys and tags may be shared with other objects: their
// capacity must be their length, so that Set copies before it appends, and
// Delete never deletes in place.
func adopt(keys []string, tags []uint8, list *memberList, vals []any) *Object {
	o := withVals(len(vals))
	copy(o.vals, vals)
	o.keys, o.tags, o.list = keys, tags, list
	if len(keys) > indexAbove {
		o.buildIndex()
	}
	return o
}

// withVals returns an empty object whose vals, n of them, are allocated
// with it: one allocation instead of two, and a reader of the object finds
// its values next to it in memory. One case per count: the runtime
// rounds each to its size class.
func withVals(n int) *Object {
	switch n {
	case 0:
		return &Object{vals: []any{}}
	case 1:
		return objectOf(n, func(v *[1]any) []any { return v[:] })
	case 2:
		return objectOf(n, func(v *[2]any) []any { return v[:] })
	case 3:
		return objectOf(n, func(v *[3]any) []any { return v[:] })
	case 4:
		return objectOf(n, func(v *[4]any) []any { return v[:] })
	case 5:
		return objectOf(n, func(v *[5]any) []any { return v[:] })
	case 6:
		return objectOf(n, func(v *[6]any) []any { return v[:] })
	case 7:
		return objectOf(n, func(v *[7]any) []any { return v[:] })
	case 8:
		return objectOf(n, func(v *[8]any) []any { return v[:] })
	case 9:
		return objectOf(n, func(v *[9]any) []any { return v[:] })
	case 10:
		return objectOf(n, func(v *[10]any) []any { return v[:] })
	case 11:
		return objectOf(n, func(v *[11]any) []any { return v[:] })
	case 12:
		return objectOf(n, func(v *[12]any) []any { return v[:] })
	case 13:
		return objectOf(n, func(v *[13]any) []any { return v[:] })
	case 14:
		return objectOf(n, func(v *[14]any) []any { return v[:] })
	case 15:
		return objectOf(n, func(v *[15]any) []any { return v[:] })
	case 16:
		return objectOf(n, func(v *[16]any) []any { return v[:] })
	case 17:
		return objectOf(n, func(v *[17]any) []any { return v[:] })
	case 18:
		return objectOf(n, func(v *[18]any) []any { return v[:] })
	case 19:
		return objectOf(n, func(v *[19]any) []any { return v[:] })
	case 20:
		return objectOf(n, func(v *[20]any) []any { return v[:] })
	case 21:
		return objectOf(n, func(v *[21]any) []any { return v[:] })
	case 22:
		return objectOf(n, func(v *[22]any) []any { return v[:] })
	case 23:
		return objectOf(n, func(v *[23]any) []any { return v[:] })
	case 24:
		return objectOf(n, func(v *[24]any) []any { return v[:] })
	case 25:
		return objectOf(n, func(v *[25]any) []any { return v[:] })
	case 26:
		return objectOf(n, func(v *[26]any) []any { return v[:] })
	case 27:
		return objectOf(n, func(v *[27]any) []any { return v[:] })
	case 28:
		return objectOf(n, func(v *[28]any) []any { return v[:] })
	case 29:
		return objectOf(n, func(v *[29]any) []any { return v[:] })
	case 30:
		return objectOf(n, func(v *[30]any) []any { return v[:] })
	case 31:
		return objectOf(n, func(v *[31]any) []any { return v[:] })
	case 32:
		return objectOf(n, func(v *[32]any) []any { return v[:] })
	case 33:
		return objectOf(n, func(v *[33]any) []any { return v[:] })
	case 34:
		return objectOf(n, func(v *[34]any) []any { return v[:] })
	case 35:
		return objectOf(n, func(v *[35]any) []any { return v[:] })
	case 36:
		return objectOf(n, func(v *[36]any) []any { return v[:] })
	case 37:
		return objectOf(n, func(v *[37]any) []any { return v[:] })
	case 38:
		return objectOf(n, func(v *[38]any) []any { return v[:] })
	case 39:
		return objectOf(n, func(v *[39]any) []any { return v[:] })
	case 40:
		return objectOf(n, func(v *[40]any) []any { return v[:] })
	case 41:
		return objectOf(n, func(v *[41]any) []any { return v[:] })
	case 42:
		return objectOf(n, func(v *[42]any) []any { return v[:] })
	case 43:
		return objectOf(n, func(v *[43]any) []any { return v[:] })
	case 44:
		return objectOf(n, func(v *[44]any) []any { return v[:] })
	case 45:
		return objectOf(n, func(v *[45]any) []any { return v[:] })
	case 46:
		return objectOf(n, func(v *[46]any) []any { return v[:] })
	case 47:
		return objectOf(n, func(v *[47]any) []any { return v[:] })
	case 48:
		return objectOf(n, func(v *[48]any) []any { return v[:] })
	case 49:
		return objectOf(n, func(v *[49]any) []any { return v[:] })
	case 50:
		return objectOf(n, func(v *[50]any) []any { return v[:] })
	case 51:
		return objectOf(n, func(v *[51]any) []any { return v[:] })
	case 52:
		return objectOf(n, func(v *[52]any) []any { return v[:] })
	case 53:
		return objectOf(n, func(v *[53]any) []any { return v[:] })
	case 54:
		return objectOf(n, func(v *[54]any) []any { return v[:] })
	case 55:
		return objectOf(n, func(v *[55]any) []any { return v[:] })
	case 56:
		return objectOf(n, func(v *[56]any) []any { return v[:] })
	case 57:
		return objectOf(n, func(v *[57]any) []any { return v[:] })
	case 58:
		return objectOf(n, func(v *[58]any) []any { return v[:] })
	case 59:
		return objectOf(n, func(v *[59]any) []any { return v[:] })
	case 60:
		return objectOf(n, func(v *[60]any) []any { return v[:] })
	case 61:
		return objectOf(n, func(v *[61]any) []any { return v[:] })
	case 62:
		return objectOf(n, func(v *[62]any) []any { return v[:] })
	case 63:
		return objectOf(n, func(v *[63]any) []any { return v[:] })
	case 64:
		return objectOf(n, func(v *[64]any) []any { return v[:] })
	}
	return &Object{vals: make([]any, n)}
}

// objectOf allocates an Object and an array A together; slice returns the
// array as a slice.
func objectOf[A any](n int, slice func(*A) []any) *Object {
	p := new(struct {
		o Object
		v A
	})
	p.o.vals = slice(&p.v)[:n]
	return &p.o
}

// New returns an empty object.
func New() *Object { return &Object{} }

// NewSized returns an empty object with room for n members.
func NewSized(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

// Len is the number of members.
func (o *Object) Len() int { return len(o.keys) }

// Keys are the member names in order. The slice is the object's own, or
// shared with objects decoded with it that have the same members; do not
// modify it.
func (o *Object) Keys() []string { return o.keys }

func (o *Object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	if o.list != nil {
		t := tagOf(k)
		switch p := o.list.positions[t]; p {
		case 0:
			return -1
		case sharedTag:
			if o.tags == nil {
				return slices.Index(o.keys, k)
			}
			return findTagged(o.keys, o.tags, k, t)
		default:
			if o.keys[p-1] == k {
				return int(p - 1)
			}
			return -1
		}
	}
	if o.tags != nil {
		return findTagged(o.keys, o.tags, k, tagOf(k))
	}
	for i, x := range o.keys {
		if x == k {
			return i
		}
	}
	return -1
}

// appended records that the last key was just added: the tags and the
// index follow, or are built once the object grows to tagsFrom or past
// indexAbove.
func (o *Object) appended() {
	o.list = nil
	switch last := o.keys[len(o.keys)-1]; {
	case o.tags != nil:
		o.tags = append(o.tags, tagOf(last))
	case len(o.keys) >= tagsFrom:
		o.tags = make([]uint8, len(o.keys), 2*len(o.keys))
		for i, x := range o.keys {
			o.tags[i] = tagOf(x)
		}
	}
	switch {
	case o.index != nil:
		o.index[o.keys[len(o.keys)-1]] = len(o.keys) - 1
	case len(o.keys) > indexAbove:
		o.buildIndex()
	}
}

func (o *Object) buildIndex() {
	o.index = make(map[string]int, len(o.keys))
	for i, x := range o.keys {
		o.index[x] = i
	}
}

// Has reports whether the member exists.
func (o *Object) Has(k string) bool { return o.find(k) >= 0 }

// Get returns a member.
func (o *Object) Get(k string) (any, bool) {
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Set sets a member, appending it if it is new and keeping its place if
// not.
func (o *Object) Set(k string, v any) *Object {
	o.writable("Set", k)
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return o
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	o.appended()
	return o
}

// Delete removes a member.
func (o *Object) Delete(k string) {
	o.writable("Delete", k)
	i := o.find(k)
	if i < 0 {
		return
	}
	// New arrays for keys and tags: decoded objects with the same members
	// share them.
	o.keys = without(o.keys, i)
	o.list = nil
	o.vals = slices.Delete(o.vals, i, i+1)
	if o.tags != nil {
		o.tags = without(o.tags, i)
	}
	o.index = nil
	if len(o.keys) > indexAbove {
		o.buildIndex()
	}
}

// without returns s without its element i, in a new array.
func without[S ~[]E, E any](s S, i int) S {
	c := make(S, 0, len(s)-1)
	return append(append(c, s[:i]...), s[i+1:]...)
}

// Range calls fn for each member in order until fn returns false.
func (o *Object) Range(fn func(k string, v any) bool) {
	for i, k := range o.keys {
		if !fn(k, o.vals[i]) {
			return
		}
	}
}

// get is Get without the second result, for the typed accessors.
func (o *Object) get(k string) any {
	v, _ := o.Get(k)
	return v
}

// String returns a string member.
func (o *Object) String(k string) (string, bool) {
	s, ok := o.get(k).(string)
	return s, ok
}

// Number returns a numeric member as a float64.
func (o *Object) Number(k string) (float64, bool) {
	return AsFloat(o.get(k))
}

// Bool returns a boolean member.
func (o *Object) Bool(k string) (bool, bool) {
	b, ok := o.get(k).(bool)
	return b, ok
}

// Object returns an object member.
func (o *Object) Object(k string) (*Object, bool) {
	c, ok := o.get(k).(*Object)
	return c, ok && c != nil
}

// Array returns an array member.
func (o *Object) Array(k string) ([]any, bool) {
	a, ok := o.get(k).([]any)
	return a, ok
}

// IsNull reports whether the member exists and is null.
func (o *Object) IsNull(k string) bool {
	v, ok := o.Get(k)
	return ok && v == nil
}

// Clone is a deep copy, never frozen.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := &Object{keys: slices.Clone(o.keys), vals: make([]any, len(o.vals)), tags: slices.Clone(o.tags), list: o.list}
	for i, v := range o.vals {
		c.vals[i] = CloneValue(v)
	}
	if len(c.keys) > indexAbove {
		c.buildIndex()
	}
	return c
}

// CloneValue deep-copies any ojson value.
func CloneValue(v any) any {
	switch t := v.(type) {
	case *Object:
		return t.Clone()
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = CloneValue(e)
		}
		return c
	}
	return v
}

// AsFloat reads a number (json.Number, or any Go number a builder put in).
func AsFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

// MarshalJSON writes the object compactly, members in order.
func (o *Object) MarshalJSON() ([]byte, error) {
	return Marshal(o)
}

// UnmarshalJSON reads an object with default limits.
func (o *Object) UnmarshalJSON(b []byte) error {
	o.writable("UnmarshalJSON", "")
	v, err := Decode(b, Limits{})
	if err != nil {
		return err
	}
	c, ok := v.(*Object)
	if !ok {
		return &Error{Code: ErrNotObject, Offset: 0}
	}
	o.keys, o.vals, o.index, o.list, o.tags = c.keys, c.vals, c.index, c.list, c.tags
	return nil
}
