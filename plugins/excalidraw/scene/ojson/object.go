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
type Object struct {
	keys []string
	vals map[string]any
}

// New returns an empty object.
func New() *Object { return &Object{vals: map[string]any{}} }

// NewSized returns an empty object with room for n members.
func NewSized(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make(map[string]any, n)}
}

// Len is the number of members.
func (o *Object) Len() int { return len(o.keys) }

// Keys are the member names in order. The slice is the object's own; do
// not modify it.
func (o *Object) Keys() []string { return o.keys }

// Has reports whether the member exists.
func (o *Object) Has(k string) bool { _, ok := o.vals[k]; return ok }

// Get returns a member.
func (o *Object) Get(k string) (any, bool) { v, ok := o.vals[k]; return v, ok }

// Set sets a member, appending it if it is new and keeping its place if
// not.
func (o *Object) Set(k string, v any) *Object {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
	return o
}

// Delete removes a member.
func (o *Object) Delete(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	if i := slices.Index(o.keys, k); i >= 0 {
		o.keys = slices.Delete(o.keys, i, i+1)
	}
}

// String returns a string member.
func (o *Object) String(k string) (string, bool) {
	s, ok := o.vals[k].(string)
	return s, ok
}

// Number returns a numeric member as a float64.
func (o *Object) Number(k string) (float64, bool) {
	return AsFloat(o.vals[k])
}

// Bool returns a boolean member.
func (o *Object) Bool(k string) (bool, bool) {
	b, ok := o.vals[k].(bool)
	return b, ok
}

// Object returns an object member.
func (o *Object) Object(k string) (*Object, bool) {
	c, ok := o.vals[k].(*Object)
	return c, ok && c != nil
}

// Array returns an array member.
func (o *Object) Array(k string) ([]any, bool) {
	a, ok := o.vals[k].([]any)
	return a, ok
}

// IsNull reports whether the member exists and is null.
func (o *Object) IsNull(k string) bool {
	v, ok := o.vals[k]
	return ok && v == nil
}

// Clone is a deep copy.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := &Object{keys: slices.Clone(o.keys), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = CloneValue(v)
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
