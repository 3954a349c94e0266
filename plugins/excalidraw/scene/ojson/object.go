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
	"encoding/json"
	"slices"
)

// Object is a JSON object that remembers the order of its members.
//
// Members live in two parallel slices: drawings hold millions of small
// objects, and a linear scan of ~30 keys costs less than building a map for
// each. Large objects (a scene's `files`) get an index, which only the
// writers (Set, Delete, the decoder, Clone) build and keep, so reading an
// object from several goroutines at once is safe.
type Object struct {
	keys  []string
	vals  []any
	index map[string]int // kept while len(keys) > indexAbove
	// frozen objects refuse writes (see Freeze); root is the object
	// whose Freeze froze this one.
	frozen bool
	root   *Object
}

const indexAbove = 32

// New returns an empty object.
func New() *Object { return &Object{} }

// NewSized returns an empty object with room for n members.
func NewSized(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

// Len is the number of members.
func (o *Object) Len() int { return len(o.keys) }

// Keys are the member names in order. The slice is the object's own; do
// not modify it.
func (o *Object) Keys() []string { return o.keys }

func (o *Object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	for i, x := range o.keys {
		if x == k {
			return i
		}
	}
	return -1
}

// appended records that the last key was just added: the index follows,
// or is built once the object grows past indexAbove.
func (o *Object) appended() {
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
	o.keys = slices.Delete(o.keys, i, i+1)
	o.vals = slices.Delete(o.vals, i, i+1)
	o.index = nil
	if len(o.keys) > indexAbove {
		o.buildIndex()
	}
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
	c := &Object{keys: slices.Clone(o.keys), vals: make([]any, len(o.vals))}
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
	*o = *c
	return nil
}
