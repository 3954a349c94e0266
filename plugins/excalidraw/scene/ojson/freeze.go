package ojson

import "fmt"

// Freezing makes a tree of objects immutable, so that it can be shared:
// by readers on several goroutines, and by documents forked from it that
// copy only what they change (copy on write). A write to a frozen object
// panics with a *FrozenError rather than change what others hold; code
// that forks a frozen tree recovers it (IsFrozenPanic) and starts over
// from a private copy. Arrays ([]any) cannot refuse writes: code that
// edits values in place must own them (Clone) first, as every writer of
// element members here does by building new arrays.

// FrozenError is the panic value of a write to a frozen object.
type FrozenError struct {
	Op, Key string
	// Root is the object whose Freeze froze the one written: the
	// element, when a member nested in an element was written.
	Root *Object
}

func (e *FrozenError) Error() string {
	return fmt.Sprintf("ojson: %s of %q on a frozen object", e.Op, e.Key)
}

// Freeze makes o and every object below it (in members and arrays,
// however deep) refuse writes. An object already frozen is skipped with
// what is below it, so freezing a tree that shares frozen parts costs
// only what is new. It returns o.
func (o *Object) Freeze() *Object {
	o.freeze(o)
	return o
}

func (o *Object) freeze(root *Object) {
	if o == nil || o.frozen {
		return
	}
	o.frozen, o.root = true, root
	for _, v := range o.vals {
		freezeValue(v, root)
	}
}

func freezeValue(v any, root *Object) {
	switch t := v.(type) {
	case *Object:
		t.freeze(root)
	case []any:
		for _, x := range t {
			freezeValue(x, root)
		}
	}
}

// Frozen reports whether o refuses writes.
func (o *Object) Frozen() bool { return o != nil && o.frozen }

// writable panics if o is frozen; every writer calls it first.
func (o *Object) writable(op, key string) {
	if o.frozen {
		panic(&FrozenError{Op: op, Key: key, Root: o.root})
	}
}

// AsFrozenPanic returns a recovered panic value that is a write to a
// frozen object.
func AsFrozenPanic(r any) (*FrozenError, bool) {
	e, ok := r.(*FrozenError)
	return e, ok
}

// Derived returns fn(o), computed once for a frozen object and kept with
// it: what a reader works out from an element that cannot change (its
// geometry, say) need not be worked out again by the next reader. One
// value is kept per object, for the one type T of the caller's; another
// type's value is replaced. For an object that is not frozen, fn runs
// every time. fn must not write o, and its result is shared by every
// caller: read only.
func Derived[T any](o *Object, fn func(*Object) T) T {
	if !o.Frozen() {
		return fn(o)
	}
	if p := o.derived.Load(); p != nil {
		if v, ok := (*p).(T); ok {
			return v
		}
	}
	v := fn(o)
	var a any = v
	o.derived.Store(&a)
	return v
}
