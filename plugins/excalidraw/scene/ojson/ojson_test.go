package ojson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
)

func TestDecodeKeepsOrderAndNumbers(t *testing.T) {
	v, err := Decode([]byte(`{"z":1,"a":1.50,"m":[1e3,-0,{"b":null,"a":"x\u00e9\n"}],"t":true}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if strings.Join(o.Keys(), ",") != "z,a,m,t" {
		t.Fatalf("keys %v", o.Keys())
	}
	out, _ := Marshal(o)
	if string(out) != `{"z":1,"a":1.50,"m":[1e3,-0,{"b":null,"a":"xé\n"}],"t":true}` {
		t.Fatalf("re-encoded %s", out)
	}
}

func TestDecodeRejections(t *testing.T) {
	deep := strings.Repeat("[", 70) + strings.Repeat("]", 70)
	cases := []struct {
		in   string
		want error
	}{
		{`{"a":1,"a":2}`, ErrDuplicateKey},
		{`{"__proto__":{}}`, ErrUnsafeKey},
		{`{"x":[{"constructor":1}]}`, ErrUnsafeKey},
		{`{"prototype":1}`, ErrUnsafeKey},
		{deep, ErrTooDeep},
		{`{"a":}`, ErrSyntax},
		{`{"a":1,}`, ErrSyntax},
		{`[1 2]`, ErrSyntax},
		{`"\x"`, ErrSyntax},
		{"\"a\x01\"", ErrSyntax},
		{"\"\xff\"", ErrSyntax},
		{`01`, ErrSyntax},
		{`1.`, ErrSyntax},
		{`{} {}`, ErrSyntax},
		{`nul`, ErrSyntax},
		{``, ErrSyntax},
	}
	for _, c := range cases {
		_, err := Decode([]byte(c.in), Limits{})
		if !errors.Is(err, c.want) {
			t.Errorf("%q: err %v, want %v", c.in, err, c.want)
		}
	}
	if _, err := Decode([]byte(`[1,2,3]`), Limits{MaxBytes: 3}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("size limit: %v", err)
	}
	_, err := Decode([]byte(`{"elements":[{"id":"a"},{"id":"b","id":"c"}]}`), Limits{})
	var e *Error
	if !errors.As(err, &e) || e.Pointer != "/elements/1" {
		t.Errorf("pointer of duplicate: %v", err)
	}
}

func TestSurrogates(t *testing.T) {
	v, err := Decode([]byte(`["\ud83d\ude00","\ud800x"]`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a := v.([]any)
	if a[0] != "😀" || a[1] != "\uFFFDx" {
		t.Fatalf("%q", a)
	}
}

func TestEncodeLikeJSONStringify(t *testing.T) {
	o := New().Set("s", "<a&b> \"q\" \\ \u0001 \t").Set("f", 0.1).Set("i", 3.0).Set("big", 1e21).Set("tiny", 1e-7).Set("e", []any{}).Set("o", New())
	out, _ := Marshal(o)
	want := `{"s":"<a&b> \"q\" \\ \u0001 \t","f":0.1,"i":3,"big":1e+21,"tiny":1e-7,"e":[],"o":{}}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
	ind, _ := MarshalIndent(New().Set("a", []any{1, New().Set("b", nil)}).Set("c", []any{}))
	wantInd := "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": []\n}"
	if string(ind) != wantInd {
		t.Fatalf("indent:\n%s", ind)
	}
}

func TestObjectOps(t *testing.T) {
	o := New().Set("a", 1).Set("b", 2).Set("c", 3)
	o.Set("a", 9)
	o.Delete("b")
	o.Delete("missing")
	if strings.Join(o.Keys(), ",") != "a,c" {
		t.Fatal(o.Keys())
	}
	c := o.Clone()
	c.Set("a", 0)
	if n, _ := o.Number("a"); n != 9 {
		t.Fatal("clone shares state")
	}
	var u Object
	if err := json.Unmarshal([]byte(`{"x":[1,{"y":2}]}`), &u); err != nil || !u.Has("x") {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`[1]`), &u); err == nil {
		t.Fatal("array into object accepted")
	}
}

// Every real drawing decodes, re-encodes with the same meaning, and most
// come back byte-identical in Excalidraw's own indented form.
func TestCorpusRoundTrip(t *testing.T) {
	identical := 0
	files := testcorpus.Files(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Decode(data, Limits{})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		da, db := json.NewDecoder(bytes.NewReader(data)), json.NewDecoder(bytes.NewReader(out))
		da.UseNumber()
		db.UseNumber()
		if da.Decode(&a) != nil || db.Decode(&b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: meaning changed by a round trip", filepath.Base(f))
		}
		ind, _ := MarshalIndent(v)
		if bytes.Equal(bytes.TrimSpace(ind), bytes.TrimSpace(data)) {
			identical++
		}
	}
	t.Logf("%d of %d corpus files re-encode byte-identical in indented form", identical, len(files))
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"a":[1,2,{"b":"c"}],"d":null}`))
	f.Add([]byte(`"\ud83d\ude00"`))
	for _, p := range []string{"single-text.excalidraw", "legacy-draw-type.excalidraw"} {
		f.Add(testcorpus.Read(f, p))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, Limits{MaxBytes: 1 << 20})
		if err != nil {
			return
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		v2, err := Decode(out, Limits{MaxBytes: 1 << 21})
		if err != nil {
			t.Fatalf("re-encoded value does not decode: %v\n%s", err, out)
		}
		out2, _ := Marshal(v2)
		if !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON out: %s", out)
		}
	})
}

func BenchmarkDecodeCorpusLargest(b *testing.B) {
	data := testcorpus.Read(b, "large-2000.excalidraw")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConcurrentReadsOfALargeObject: readers never build the index, so
// many goroutines may read one large object at once (run with -race). A
// decoded object exactly one past the index threshold, and its clone,
// have their index from the start.
func TestConcurrentReadsOfALargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i <= indexAbove; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteString("}")
	v, err := Decode([]byte(b.String()), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []*Object{v.(*Object), v.(*Object).Clone()} {
		if o.index == nil {
			t.Fatalf("a %d-member object has no index", o.Len())
		}
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Go(func() {
				for i := 0; i <= indexAbove+5; i++ {
					o.Has(fmt.Sprintf("k%d", i))
				}
			})
		}
		wg.Wait()
	}
}

// TestSharedMemberNames: decoded objects with the same members share their
// keys, and changing one of them (Set of a new member, Delete) leaves the
// others as they were.
func TestSharedMemberNames(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 400 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"e%d","type":"rectangle","x":%d,"y":1.5,"a":1,"b":2,"c":3,"d":4,"e":5,"f":"solid"}`, i, i)
	}
	b.WriteString("]")
	v, err := Decode([]byte(b.String()), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	els := v.([]any)
	first, second, third := els[0].(*Object), els[1].(*Object), els[2].(*Object)
	if &first.keys[0] != &second.keys[0] {
		t.Fatal("member names not shared")
	}
	want, _ := Marshal(third)
	second.Set("z", "new")
	first.Delete("x")
	first.Delete("id")
	if got, _ := Marshal(third); !bytes.Equal(got, want) {
		t.Fatalf("a change to a sibling changed it:\n%s\n%s", got, want)
	}
	if s := strings.Join(first.Keys(), ","); s != "type,y,a,b,c,d,e,f" {
		t.Fatalf("after deletes: %s", s)
	}
	if s := strings.Join(second.Keys(), ","); s != "id,type,x,y,a,b,c,d,e,f,z" {
		t.Fatalf("after set: %s", s)
	}
	for _, o := range []*Object{first, second, third} {
		for i, k := range o.Keys() {
			if o.find(k) != i || o.find(k+"?") != -1 {
				t.Fatalf("%q not found at %d in %v", k, i, o.Keys())
			}
		}
	}
}

// TestSpecial8: the first byte special8 flags is the first byte that is
// not plain, for every byte value at every position among plain bytes and
// random ones.
func TestSpecial8(t *testing.T) {
	first := func(w [8]byte) int {
		for i, c := range w {
			if !plain[c] {
				return i
			}
		}
		return 8
	}
	check := func(w [8]byte) {
		x := binary.LittleEndian.Uint64(w[:])
		got := 8
		if m := special8(x); m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if want := first(w); got != want {
			t.Fatalf("%q: flagged %d, want %d", w, got, want)
		}
		if load8(string(w[:]), 0) != x {
			t.Fatalf("load8 %q", w)
		}
	}
	for c := range 256 {
		for pos := range 8 {
			for _, fill := range []byte{'a', 0x80, 0xff, 0x21, 0x23, 0x5b, 0x5d, 0x20} {
				var w [8]byte
				for i := range w {
					w[i] = fill
				}
				w[pos] = byte(c)
				check(w)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		var w [8]byte
		for i := range w {
			w[i] = byte(rng.Uint32())
		}
		check(w)
	}
}
