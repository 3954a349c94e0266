package ojson

import (
	"testing"
)

func TestFreezeRefusesWritesDeep(t *testing.T) {
	v, err := Decode([]byte(`{"a":1,"b":{"c":[{"d":2}]}}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object).Freeze()
	b, _ := o.Object("b")
	arr, _ := b.Array("c")
	inner := arr[0].(*Object)
	for name, write := range map[string]func(){
		"set top":      func() { o.Set("a", 2) },
		"add top":      func() { o.Set("z", 2) },
		"delete top":   func() { o.Delete("a") },
		"set nested":   func() { b.Set("c", nil) },
		"set in array": func() { inner.Set("d", 3) },
		"unmarshal":    func() { _ = o.UnmarshalJSON([]byte(`{}`)) },
	} {
		func() {
			defer func() {
				fe, ok := AsFrozenPanic(recover())
				if !ok || fe.Root != o {
					t.Errorf("%s: panic %v, want a *FrozenError naming the frozen root", name, fe)
				}
			}()
			write()
		}()
	}
	if got, _ := Marshal(o); string(got) != `{"a":1,"b":{"c":[{"d":2}]}}` {
		t.Fatalf("a refused write changed the object: %s", got)
	}
}

func TestCloneOfFrozenIsWritable(t *testing.T) {
	o := New().Set("a", New().Set("b", 1)).Freeze()
	c := o.Clone()
	if c.Frozen() {
		t.Fatal("clone is frozen")
	}
	inner, _ := c.Object("a")
	inner.Set("b", 2) // must not panic: the clone is deep
	c.Set("x", true)
	if got, _ := Marshal(o); string(got) != `{"a":{"b":1}}` {
		t.Fatalf("writing the clone changed the original: %s", got)
	}
}

func TestFreezeSkipsFrozenSubtrees(t *testing.T) {
	shared := New().Set("k", 1).Freeze()
	o := New().Set("s", shared).Set("n", New())
	o.Freeze()
	n, _ := o.Object("n")
	if !o.Frozen() || !n.Frozen() || !shared.Frozen() {
		t.Fatal("not frozen throughout")
	}
	var nilObj *Object
	if nilObj.Frozen() || nilObj.Freeze() != nil {
		t.Fatal("nil object")
	}
}
