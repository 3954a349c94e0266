package findex

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBetweenKnownValues(t *testing.T) {
	cases := []struct{ a, b, want string }{
		{"", "", "a0"},
		{"a0", "", "a1"},
		{"a1", "", "a2"},
		{"", "a0", "Zz"},
		{"a0", "a1", "a0V"},
		{"a1", "a2", "a1V"},
		{"a0V", "a1", "a0l"},
		{"Zz", "a0", "ZzV"},
		{"Zz", "a1", "a0"},
		{"", "Y00", "Xzzz"},
		{"bzz", "", "c000"},
		{"a0", "a0V", "a0G"},
		{"a0", "a0G", "a08"},
		{"b125", "b129", "b127"},
		{"a0", "a1V", "a1"},
		{"Zz", "a01", "a0"},
		{"", "a0V", "a0"},
		{"", "b999", "b99"},
		{"az", "", "b00"},
		{"a0", "a00001", "a00000V"},
	}
	for _, c := range cases {
		got, err := Between(c.a, c.b)
		if err != nil {
			t.Errorf("Between(%q,%q): %v", c.a, c.b, err)
			continue
		}
		if got != c.want {
			t.Errorf("Between(%q,%q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestBetweenErrors(t *testing.T) {
	for _, c := range [][2]string{{"a1", "a0"}, {"a0", "a0"}, {"a00", ""}, {"", "A" + "00000000000000000000000000"}, {"a", ""}, {"!0", ""}} {
		if _, err := Between(c[0], c[1]); err == nil {
			t.Errorf("Between(%q,%q) accepted", c[0], c[1])
		}
	}
}

func TestValidate(t *testing.T) {
	for _, ok := range []string{"a0", "a0V", "Zz", "b125", "zzzzzzzzzzzzzzzzzzzzzzzzzzz", "A00000000000000000000000001"} {
		if err := Validate(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a", "a00", "a0-", "Ⓐ0", "A00000000000000000000000000", "b1"} {
		if Validate(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Random insertions always produce valid keys that keep the order.
func TestRandomInsertionsStaySorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := []string{}
	for range 2000 {
		pos := r.IntN(len(keys) + 1)
		a, b := "", ""
		if pos > 0 {
			a = keys[pos-1]
		}
		if pos < len(keys) {
			b = keys[pos]
		}
		k, err := Between(a, b)
		if err != nil {
			t.Fatalf("Between(%q,%q): %v", a, b, err)
		}
		if err := Validate(k); err != nil {
			t.Fatalf("made invalid key %q: %v", k, err)
		}
		keys = slices.Insert(keys, pos, k)
	}
	if !slices.IsSorted(keys) || len(CheckOrder(keys)) != 0 {
		t.Fatal("keys out of order")
	}
}

func TestN(t *testing.T) {
	for _, c := range []struct {
		a, b string
		n    int
	}{{"", "", 10}, {"a0", "", 100}, {"", "a0", 5}, {"a0", "a1", 50}, {"Zz", "a0V", 3}} {
		ks, err := N(c.a, c.b, c.n)
		if err != nil || len(ks) != c.n {
			t.Fatalf("N(%q,%q,%d) = %v, %v", c.a, c.b, c.n, ks, err)
		}
		all := append([]string{}, ks...)
		if c.a != "" {
			all = append([]string{c.a}, all...)
		}
		if c.b != "" {
			all = append(all, c.b)
		}
		if bad := CheckOrder(all); len(bad) != 0 {
			t.Fatalf("N(%q,%q,%d) out of order at %v: %v", c.a, c.b, c.n, bad, all)
		}
	}
	if ks, _ := N("", "", 0); ks != nil {
		t.Fatal("N(0) must be empty")
	}
}

func TestCheckOrder(t *testing.T) {
	got := CheckOrder([]string{"a0", "a2", "a1", "", "a3", "a3", "?x"})
	want := []int{2, 3, 5, 6}
	if !slices.Equal(got, want) {
		t.Fatalf("CheckOrder = %v, want %v", got, want)
	}
}

func FuzzBetween(f *testing.F) {
	f.Add("a0", "a1")
	f.Add("", "a0")
	f.Add("Zz", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		k, err := Between(a, b)
		if err != nil {
			return
		}
		if Validate(k) != nil || (a != "" && k <= a) || (b != "" && k >= b) {
			t.Fatalf("Between(%q,%q) = %q", a, b, k)
		}
	})
}

func BenchmarkN1000(b *testing.B) {
	for b.Loop() {
		_, _ = N("", "", 1000)
	}
}
