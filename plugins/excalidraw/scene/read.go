package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// The element readers: one member of an element, with the zero value for
// one that is absent or of another type. They are the one home of these
// reads; engine, query, build and service use them instead of copies.
// [Finite] is the reader of a number that must be usable.

// StringOf is el's string member k, "" when it is absent or not a string
// (or el is nil).
func StringOf(el *ojson.Object, k string) string {
	if el == nil {
		return ""
	}
	s, _ := el.String(k)
	return s
}

// NumberOf is el's number member k, 0 when it is absent or not a number
// (or el is nil).
func NumberOf(el *ojson.Object, k string) float64 {
	if el == nil {
		return 0
	}
	f, _ := el.Number(k)
	return f
}

// IsDeleted reports whether el is a tombstone (isDeleted: true).
func IsDeleted(el *ojson.Object) bool {
	if el == nil {
		return false
	}
	b, _ := el.Bool("isDeleted")
	return b
}

// elementID returns an element's id when it is a string.
func elementID(el *ojson.Object) string { return StringOf(el, "id") }

// elementType returns an element's type when it is a string.
func elementType(el *ojson.Object) string { return StringOf(el, "type") }
