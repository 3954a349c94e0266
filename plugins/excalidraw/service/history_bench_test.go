package service

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// BenchmarkSaveJournal and BenchmarkSaveNoJournal are the editor's save
// of a 1,000-element scene with one element moved, with the journal and
// without it: their ratio is what the journal costs a save (goal ≤ 1.15×).
func BenchmarkSaveJournal(b *testing.B)   { benchSave(b, store.JournalOptions{}) }
func BenchmarkSaveNoJournal(b *testing.B) { benchSave(b, store.JournalOptions{Disabled: true}) }

func benchSave(b *testing.B, j store.JournalOptions) {
	s, err := New(Config{DrawingsDir: filepath.Join(b.TempDir(), "d"), Journal: j,
		Now: func() time.Time { return time.UnixMilli(1793136000000) }, Rand: rand.New(rand.NewPCG(7, 7))})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	inputs := make([]json.RawMessage, 1000)
	for i := range inputs {
		inputs[i] = json.RawMessage(fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":%d,"width":80,"height":40,"label":{"text":"box %d"}}`, i, (i%40)*100, (i/40)*60, i))
	}
	if _, err := s.Create(ctx, CreateRequest{Name: "big", Elements: inputs}); err != nil {
		b.Fatal(err)
	}
	read, err := s.Read(ctx, ReadRequest{Name: "big"})
	if err != nil {
		b.Fatal(err)
	}
	// Two documents that differ in one element's x and version, as the
	// editor sends after a drag.
	docs := [2][]byte{}
	for k := range docs {
		d, err := scene.Parse(read.Scene, scene.Limits{}.Effective())
		if err != nil {
			b.Fatal(err)
		}
		_, el := d.Find("r500")
		el.Set("x", float64(5000+k))
		docs[k], _ = d.Marshal()
	}
	rev := read.Revision
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := s.Save(ctx, SaveRequest{Name: "big", Scene: docs[i%2], ExpectedRevision: rev, RequestID: fmt.Sprint("tab:", i)})
		if err != nil {
			b.Fatal(err)
		}
		rev = res.Revision
	}
}

// BenchmarkRevert10k reverts a one-element move on a 10,000-element
// scene (then reverts the revert, and so on); BenchmarkMove10k is the
// move itself, the baseline.
func BenchmarkRevert10k(b *testing.B) {
	s := bench10k(b)
	if _, err := s.Write(ctx, WriteRequest{Name: "big"}, moveOne("r5000", 7)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		page, err := s.Log(ctx, LogRequest{Name: "big", Limit: 1, IDs: LogIDsNone})
		if err != nil {
			b.Fatal(err)
		}
		env, err := s.Restore(ctx, RestoreRequest{Name: "big", From: page.Entries[0].Commit, Options: WriteOptions{Lint: LintOff}})
		if err != nil || !env.Persisted {
			b.Fatal(err, env)
		}
	}
}

func BenchmarkMove10k(b *testing.B) {
	s := bench10k(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Write(ctx, WriteRequest{Name: "big", Options: WriteOptions{Lint: LintOff}}, moveOne("r5000", float64(1-2*(i%2)))); err != nil {
			b.Fatal(err)
		}
	}
}

func bench10k(b *testing.B) *Service {
	s, _ := benchN(b, 10000)
	return s
}
