package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Writes that edit a fork of the sealed document (fork.go: only what
// they change is copied, normalized, validated and encoded) store exactly
// the bytes of writes that edit a private copy of the whole scene. Random
// operations (moves, restyles, text edits, deletes, new shapes, arrows
// bound between existing shapes, labels) run on every scene of the corpus
// through two services alike in all but that; after every call both give
// the same answer, and both files hold the same bytes.
func TestForkedWritesEqualFullWrites(t *testing.T) {
	files := testcorpus.Files(t)
	steps := 6
	if testing.Short() {
		files, steps = files[:8], 4
	}
	var committed, refused int
	var forked, retried int64
	for fi, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fast, _ := newTestService(t, scene.Limits{})
		full, _ := newTestService(t, scene.Limits{})
		full.noForks = true
		name := fmt.Sprintf("c%d", fi)
		for _, s := range []*Service{fast, full} {
			if _, err := s.Create(ctx, CreateRequest{Name: name}); err != nil {
				t.Fatal(err)
			}
		}
		rf, errF := fast.Save(ctx, SaveRequest{Name: name, Scene: data, ExpectedRevision: 1})
		_, errS := full.Save(ctx, SaveRequest{Name: name, Scene: data, ExpectedRevision: 1})
		if (errF == nil) != (errS == nil) {
			t.Fatalf("%s: saves disagree: %v / %v", filepath.Base(path), errF, errS)
		}
		if errF != nil {
			t.Logf("%s: %v", filepath.Base(path), errF)
			continue // a corpus file over the write limits
		}
		r := rand.New(rand.NewPCG(uint64(fi), 13))
		rev := rf.Revision
		for step := range steps {
			prev := storedBytes(t, fast, name)
			cur, err := fast.viewStored(prev)
			if err != nil {
				t.Fatal(err)
			}
			ops := randomOps(r, cur)
			req := ApplyRequest{Name: name, ExpectedRevision: rev, Operations: ops}
			a, errA := fast.Apply(ctx, req)
			_, errB := full.Apply(ctx, req)
			if code(errA) != code(errB) {
				t.Fatalf("%s step %d %s: forked %v, full %v", filepath.Base(path), step, ops, errA, errB)
			}
			if errA != nil {
				refused++
				continue
			}
			committed++
			rev = a.Revision
			if x, y := storedBytes(t, fast, name), storedBytes(t, full, name); !bytes.Equal(x, y) {
				t.Fatalf("%s step %d %s: the forked write stored other bytes than the full one", filepath.Base(path), step, ops)
			}
			// The journal's diff from the fork's provenance is the diff of
			// the bytes.
			after := storedBytes(t, fast, name)
			quick, err1 := fast.docs.codec().Diff(prev, after)
			slow, err2 := (&storeCodec{cache: &docCache{}}).Diff(prev, after)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(quick, slow) {
				t.Fatalf("%s step %d: diffs differ (%v, %v):\n%+v\n%+v", filepath.Base(path), step, err1, err2, quick, slow)
			}
		}
		forked += fast.forks.forked.Load()
		retried += fast.forks.retried.Load()
		if full.forks.forked.Load() != 0 {
			t.Fatal("the full service forked")
		}
	}
	t.Logf("%d writes compared (%d refused alike), %d forked, %d forks retried", committed, refused, forked, retried)
	if committed < 3*len(files) || forked < int64(committed)/2 {
		t.Fatalf("only %d of %d writes forked: the comparison is mostly of full writes", forked, committed)
	}
}

func code(err error) sceneerr.Code {
	if err == nil {
		return ""
	}
	var se *sceneerr.Error
	if errors.As(err, &se) {
		return se.Code
	}
	return "other"
}

func storedBytes(t *testing.T, s *Service, name string) []byte {
	t.Helper()
	sc, err := s.store.Read(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return sc.Data
}

// randomOps are one to three operations on live elements of doc.
func randomOps(r *rand.Rand, doc *scene.Document) []json.RawMessage {
	var live, shapes []string
	types := map[string]string{}
	for _, el := range doc.Elements() {
		id, _ := el.String("id")
		typ, _ := el.String("type")
		if d, _ := el.Bool("isDeleted"); d || id == "" {
			continue
		}
		live = append(live, id)
		types[id] = typ
		if typ == "rectangle" || typ == "ellipse" || typ == "diamond" {
			shapes = append(shapes, id)
		}
	}
	pick := func(ids []string) string { return ids[r.IntN(len(ids))] }
	var ops []json.RawMessage
	for range 1 + r.IntN(3) {
		var op string
		switch k := r.IntN(10); {
		case len(live) == 0 || k == 0:
			op = fmt.Sprintf(`{"op":"add","element":{"type":"rectangle","x":%d,"y":%d,"width":120,"height":60,"label":{"text":"n%d"}}}`, r.IntN(2000), r.IntN(2000), r.IntN(100))
		case k == 1 && len(shapes) >= 2:
			op = fmt.Sprintf(`{"op":"add","element":{"type":"arrow","startElementId":%q,"endElementId":%q}}`, pick(shapes), pick(shapes))
		case k == 2:
			op = fmt.Sprintf(`{"op":"delete","id":%q}`, pick(live))
		case k == 3:
			id := pick(live)
			if types[id] == "text" {
				op = fmt.Sprintf(`{"op":"update","id":%q,"patch":{"text":"edited %d"}}`, id, r.IntN(100))
				break
			}
			op = fmt.Sprintf(`{"op":"update","id":%q,"patch":{"strokeColor":"#1971c2"}}`, id)
		case k == 4:
			op = fmt.Sprintf(`{"op":"update","id":%q,"patch":{"width":%d}}`, pick(live), 20+r.IntN(300))
		default:
			op = fmt.Sprintf(`{"op":"update","id":%q,"patch":{"x":%d,"y":%d}}`, pick(live), r.IntN(3000)-500, r.IntN(3000)-500)
		}
		ops = append(ops, json.RawMessage(op))
	}
	return ops
}

// A write that changes a shared element its fork does not own starts
// over on a fork that owns it, draws the same ids and nonces, and stores
// what a write on a private copy stores; a write that keeps reaching
// frozen elements ends on a private copy.
func TestForkRetriesWhenAWriteReachesASharedElement(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "f", Elements: flowInputs()}); err != nil {
		t.Fatal(err)
	}
	data := storedBytes(t, s, "f")
	runs := 0
	touchB := func(doc *scene.Document, sd seed) error {
		runs++
		_, err := s.editSeeded(doc, sd, func(tx *engine.Txn) error {
			_, el := doc.Find("b")
			el.Set("strokeColor", "#e03131") // not named, not owned: frozen
			return nil
		})
		if err != nil {
			return err
		}
		_, err = s.finish(doc)
		return err
	}
	doc, err := s.editStored(data, nil, touchB)
	if err != nil {
		t.Fatal(err)
	}
	if runs != 2 || s.forks.retried.Load() != 1 || s.forks.copied.Load() != 0 {
		t.Fatalf("runs %d, retried %d, copied %d: want one retry on a fork owning b", runs, s.forks.retried.Load(), s.forks.copied.Load())
	}
	if _, b := doc.Find("b"); b == nil || mustString(b, "strokeColor") != "#e03131" {
		t.Fatal("the retried write lost its change")
	}

	// Writing a nested member of a frozen element names the element too.
	nested := func(doc *scene.Document, sd seed) error {
		_, el := doc.Find("ab")
		b, _ := el.Object("startBinding")
		b.Set("gap", 7)
		return nil
	}
	if _, err := s.editStored(data, nil, nested); err != nil {
		t.Fatal(err)
	}
	if s.forks.retried.Load() != 2 {
		t.Fatalf("retried %d, want the nested write to retry once", s.forks.retried.Load())
	}

	// A write that reaches a new frozen element on every try ends on a copy.
	if _, err := s.Create(ctx, CreateRequest{Name: "r", Elements: raws(rects(6)...)}); err != nil {
		t.Fatal(err)
	}
	k := 0
	restless := func(doc *scene.Document, sd seed) error {
		_, el := doc.Find(fmt.Sprintf("r%d", k))
		k++
		el.Set("opacity", 50)
		return nil
	}
	if _, err := s.editStored(storedBytes(t, s, "r"), nil, restless); err != nil {
		t.Fatal(err)
	}
	if s.forks.copied.Load() != 1 || k != maxForkTries+1 {
		t.Fatalf("copied %d, want the restless write to end on a private copy", s.forks.copied.Load())
	}
}

func mustString(el *ojson.Object, k string) string {
	s, _ := el.String(k)
	return s
}

func init() { benchReport = reportForks }

// reportForks adds how the writes ran (fork.go) to a benchmark's
// figures: per write, the forks abandoned and the private copies made.
func reportForks(b *testing.B, s *Service) {
	n := float64(s.forks.forked.Load() + s.forks.copied.Load())
	if n == 0 {
		return
	}
	b.ReportMetric(float64(s.forks.retried.Load())/n, "retries/write")
	b.ReportMetric(float64(s.forks.copied.Load())/n, "copies/write")
}

// A write's diff of a fork against its sealed base, which looks only at
// what the fork does not share, is the diff of private copies: created,
// updated, deleted and revived alike.
func TestDiffOfAForkIsTheFullDiff(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: flowInputs()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, CreateRequest{Name: "e", Elements: raws(rects(8)...)}); err != nil {
		t.Fatal(err)
	}
	base, err := s.viewStored(storedBytes(t, s, "e"))
	if err != nil || !base.Sealed() {
		t.Fatalf("not sealed: %v", err)
	}
	fork := base.Fork()
	fork.OwnRelated([]string{"r1", "r2", "r3"})
	_, r1 := fork.Find("r1")
	r1.Set("x", 999)
	_, r2 := fork.Find("r2")
	r2.Set("isDeleted", true)
	_, r3 := fork.Find("r3")
	r3.Set("strokeColor", "#e03131")
	fork.SetElements(append(fork.Elements(), r1.Clone().Set("id", "n1").Set("x", 5)))
	if _, err := s.finish(fork); err != nil {
		t.Fatal(err)
	}
	fast, fastIDs := diff(base, fork)
	slow, slowIDs := diff(base.Clone(), fork.Clone())
	if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fastIDs, slowIDs) {
		t.Fatalf("fork diff %+v %v, full %+v %v", fast, fastIDs, slow, slowIDs)
	}
	if len(fast.Created) != 1 || len(fast.Deleted) != 1 || len(fast.Updated) < 2 {
		t.Fatalf("diff %+v", fast)
	}
}

// A write tool names the ids it changes (WriteRequest.Named, as
// update_elements does): its plan then runs once, on a fork owning them;
// without the hint the same move runs twice.
func TestNamedWriteRunsItsPlanOnce(t *testing.T) {
	for _, named := range [][]string{{"r5"}, nil} {
		s, _ := newTestService(t, scene.Limits{})
		if _, err := s.Create(ctx, CreateRequest{Name: "n", Elements: boxes(20)}); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if _, err := s.Write(ctx, WriteRequest{Name: "n", Named: named}, moveOne("r5", float64(1-2*(i%2)))); err != nil {
				t.Fatal(err)
			}
		}
		retried, forked := s.forks.retried.Load(), s.forks.forked.Load()
		if forked == 0 || named != nil && retried != 0 || named == nil && retried == 0 {
			t.Fatalf("named %v: %d forked writes, %d retried", named, forked, retried)
		}
	}
}
