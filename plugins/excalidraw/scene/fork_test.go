package scene

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// sealed is data normalized, checked, encoded and sealed, as a write
// leaves it: the document, its bytes and their split.
func sealed(t *testing.T, data []byte) (*Document, []byte, *Split, bool) {
	t.Helper()
	d, err := Parse(data, Limits{}.ForReading())
	if err != nil {
		return nil, nil, nil, false
	}
	Normalize(d)
	if len(Errors(d, Limits{})) > 0 {
		return nil, nil, nil, false
	}
	out, sp, err := Codec{}.EncodeSplit(d)
	if err != nil {
		t.Fatal(err)
	}
	d.Seal(sp, Limits{})
	return d, out, sp, true
}

// MarshalSplit cuts what it writes exactly as SplitDocument cuts it, on
// every scene of the corpus; a fork of a sealed document writes the same
// bytes as a private copy, after the same edit, and says which elements
// it wrote from the base.
func TestMarshalSplitIsSplitDocument(t *testing.T) {
	seen := 0
	files := testcorpus.Files(t)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, out, sp, ok := sealed(t, data)
		if !ok {
			continue
		}
		seen++
		want, err := SplitDocument(out)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(sp, want) {
			t.Fatalf("%s: MarshalSplit's split differs from SplitDocument's", filepath.Base(path))
		}
		if len(d.Elements()) == 0 {
			continue
		}
		fork, clone := d.Fork(), d.Clone()
		mid := len(d.Elements()) / 2
		for _, doc := range []*Document{fork, clone} {
			doc.Own(mid).Set("x", 12345)
		}
		a, asp, err := fork.MarshalSplit()
		if err != nil {
			t.Fatal(err)
		}
		b, err := clone.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: a fork writes other bytes than a copy", filepath.Base(path))
		}
		for i, j := range asp.From {
			if (i == mid) != (j < 0) || (j >= 0 && j != i) {
				t.Fatalf("%s: element %d written from base element %d", filepath.Base(path), i, j)
			}
		}
		if d.Elements()[mid].Frozen() != true || fork.Elements()[mid].Frozen() {
			t.Fatal("Own copied nothing, or froze the copy")
		}
	}
	// Every generated scene normalizes into a valid one; some real
	// drawings keep errors Normalize leaves for Validate, but most seal.
	want := len(files)
	if testcorpus.Shared() != "" {
		want = len(files) / 2
	}
	if seen < want {
		t.Fatalf("only %d of %d corpus scenes sealed, want %d", seen, len(files), want)
	}
}

// A write that reaches a shared element of a fork panics instead of
// changing the sealed document, including through nested members.
func TestForkRefusesWritesToSharedElements(t *testing.T) {
	d, _, _, ok := sealed(t, syntheticScene(t, 30))
	if !ok {
		t.Fatal("synthetic scene does not seal")
	}
	fork := d.Fork()
	_, arrow := fork.Find("a1") // from r0 to r1
	b, _ := arrow.Object("startBinding")
	func() {
		defer func() {
			fe, ok := ojson.AsFrozenPanic(recover())
			if !ok || fe.Root != arrow {
				t.Fatalf("write to a shared binding: %v", fe)
			}
		}()
		b.Set("gap", 99)
	}()
	if g, _ := b.Number("gap"); g == 99 {
		t.Fatal("the sealed document changed")
	}
}

// Errors on a fork, which checks only around what changed, finds what
// Validate finds on a private copy after the same edits: a dangling
// binding, a dangling container, a duplicate id, a bad field.
func TestForkErrorsEqualFullErrors(t *testing.T) {
	edits := map[string]func(d *Document){
		"arrow to nothing": func(d *Document) {
			a := own(d, "a1")
			b, _ := a.Object("startBinding")
			a.Set("startBinding", b.Clone().Set("elementId", "nope"))
		},
		"text of no container": func(d *Document) { own(d, "t0").Set("containerId", "gone") },
		"container not a container": func(d *Document) {
			own(d, "t1").Set("containerId", "t2")
		},
		"frame of nothing":        func(d *Document) { own(d, "r3").Set("frameId", "f9") },
		"duplicate id":            func(d *Document) { own(d, "r4").Set("id", "r0") },
		"duplicate of a later id": func(d *Document) { own(d, "r0").Set("id", "r9") },
		"two new of one id": func(d *Document) {
			d.SetElements(append(d.Elements(), ojson.New().Set("type", "rectangle").Set("id", "n"), ojson.New().Set("type", "ellipse").Set("id", "n")))
		},
		"bad field": func(d *Document) { own(d, "r5").Set("opacity", "loud") },
		"deleted target": func(d *Document) {
			own(d, "r6").Set("type", "line")
		},
		"new element": func(d *Document) { d.SetElements(append(d.Elements(), ojson.New().Set("type", "rectangle"))) },
	}
	for name, edit := range edits {
		d, _, _, _ := sealed(t, syntheticScene(t, 60))
		fork, clone := d.Fork(), d.Clone()
		edit(fork)
		edit(clone)
		got, want := codes(Errors(fork, Limits{})), codes(Validate(clone, Limits{}).Errors())
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: fork %v, full %v", name, got, want)
		}
	}
}

func own(d *Document, id string) *ojson.Object {
	i, _ := d.Find(id)
	return d.Own(i)
}

func codes(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code+"@"+d.Pointer)
	}
	return out
}

// A sealed fork's id index, carried over from its base with the fork's
// changes, is the index built from scratch.
func TestSealedForkInheritsItsBaseIndex(t *testing.T) {
	d, _, _, _ := sealed(t, syntheticScene(t, 60))
	d.enc.positions()
	fork := d.Fork()
	fork.OwnRelated([]string{"r3"}) // its label and arrows lose it
	own(fork, "r3").Set("id", "renamed")
	own(fork, "a2").Set("x", 5)
	fork.SetElements(append(fork.Elements(), ojson.New().Set("type", "rectangle").Set("id", "new")))
	Normalize(fork)
	_, sp, err := Codec{}.EncodeSplit(fork)
	if err != nil {
		t.Fatal(err)
	}
	fork.Seal(sp, Limits{})
	got := maps.Clone(fork.enc.positions())
	fresh := &encoding{info: fork.enc.info}
	if want := fresh.positions(); !maps.Equal(got, want) {
		t.Fatalf("inherited index differs:\n%v\n%v", got, want)
	}
	if _, ok := got["r3"]; ok || got["renamed"] == 0 || got["new"] != len(fork.Elements())-1 {
		t.Fatalf("index %v", got)
	}
}

// A fork's IDIndex, copied from the sealed base's and corrected, is the
// index a scan builds: after owning, renaming, adding (a duplicate id
// among them, which keeps the first) and deleting.
func TestForkIDIndexIsTheScannedOne(t *testing.T) {
	d, _, _, _ := sealed(t, syntheticScene(t, 60))
	fork := d.Fork()
	own(fork, "r2").Set("x", 1)
	own(fork, "r4").Set("id", "renamed")
	own(fork, "a3").Set("isDeleted", true)
	fork.SetElements(append(fork.Elements(), ojson.New().Set("id", "new"), ojson.New().Set("id", "r0"), ojson.New().Set("id", "")))
	got := fork.IDIndex()
	wantIdx := map[string]*ojson.Object{}
	for i, el := range fork.Elements() {
		if id, ok := el.String("id"); ok {
			if _, dup := wantIdx[id]; !dup {
				wantIdx[id] = fork.Elements()[i]
			}
		}
	}
	if !maps.Equal(got, wantIdx) {
		t.Fatalf("fork index differs from the scan's: %d vs %d entries", len(got), len(wantIdx))
	}
}

// ByID of the sealed document is its kept index, and answers as a scan
// of its elements does (non-empty ids, the first element with each).
func TestSealedByIDIsTheScannedOne(t *testing.T) {
	d, _, _, _ := sealed(t, syntheticScene(t, 40))
	want := map[string]*ojson.Object{}
	for _, el := range d.Elements() {
		if id, _ := el.String("id"); id != "" {
			if _, dup := want[id]; !dup {
				want[id] = el
			}
		}
	}
	if got := d.ByID(); !maps.Equal(got, want) {
		t.Fatalf("sealed ByID differs from the scan: %d vs %d entries", len(got), len(want))
	}
	fork := d.Fork()
	own(fork, "r3").Set("id", "moved")
	if got := fork.ByID(); got["moved"] == nil || got["r3"] != nil || got["r1"] != want["r1"] {
		t.Fatal("a fork's ByID is not its own elements'")
	}
}

// Only the sealed document itself forks: a fork of a fork, whose owned
// elements are not frozen, is a private copy, so editing it cannot
// reach the first fork's elements.
func TestForkOfAForkIsACopy(t *testing.T) {
	d, _, _, _ := sealed(t, syntheticScene(t, 30))
	first := d.Fork()
	own(first, "r1").Set("x", 7)
	if first.Sealed() {
		t.Fatal("a fork says it is sealed")
	}
	second := first.Fork()
	_, el := second.Find("r1")
	el.Set("x", 8)
	if _, was := first.Find("r1"); mustNumber(was, "x") != 7 {
		t.Fatal("editing a fork of a fork changed the first fork")
	}
}

func mustNumber(el *ojson.Object, k string) float64 {
	f, _ := el.Number(k)
	return f
}

// Kept makes a sealed document's value once; a fork, which can change,
// makes it every time.
func TestKeptIsMadeOnceForASealedDocument(t *testing.T) {
	d, _, _, _ := sealed(t, syntheticScene(t, 10))
	type key struct{}
	made := 0
	build := func() any { made++; return new(int) }
	first, second := d.Kept(key{}, build), d.Kept(key{}, build)
	if first != second || made != 1 {
		t.Fatalf("sealed: made %d times, same value %v", made, first == second)
	}
	fork := d.Fork()
	fork.Kept(key{}, build)
	fork.Kept(key{}, build)
	if made != 3 {
		t.Fatalf("a fork's value was kept (%d makes)", made)
	}
}
