// Package storetest is the conformance suite of scene stores: the
// promises every store.Backend keeps (exact bytes, the revision fence with
// exactly one winner, request-id replay, unchanged writes, a journal entry
// per commit), run against a backend the caller opens.
package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Codec is a codec for the suite's documents ({"elements":[...]}: the
// element count), for backends that need one.
type Codec struct{}

// Inspect counts the elements.
func (Codec) Inspect(data []byte) (int, error) {
	var d struct {
		Elements *[]json.RawMessage `json:"elements"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return 0, err
	}
	if d.Elements == nil {
		return 0, errors.New(`missing "elements"`)
	}
	return len(*d.Elements), nil
}

// Doc is a document of n elements whose content depends on tag.
func Doc(n int, tag string) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"excalidraw","version":2,"elements":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"e%d","type":"rectangle","x":%d,"tag":%q}`, i, i*10, tag)
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func code(err error) string {
	var e *store.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Run runs the suite; open makes a fresh, empty backend for one subtest
// (and closes it when that test ends).
func Run(t *testing.T, open func(t *testing.T) store.Backend) {
	ctx := context.Background()
	t.Run("ExactBytes", func(t *testing.T) {
		b := open(t)
		data := Doc(3, "a")
		res, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: data, Actor: store.ActorAgent, RequestID: "c1"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Revision != 1 || res.SHA256 != sum(data) || !res.Verified || res.ElementCount != 3 {
			t.Fatalf("create: %+v", res.Meta)
		}
		sc, err := b.Read(ctx, "plan")
		if err != nil || string(sc.Data) != string(data) || sc.SHA256 != sum(data) || sc.Revision != 1 {
			t.Fatalf("read back: %v %+v", err, sc)
		}
		head, err := b.Head(ctx, "plan")
		if err != nil || head.Revision != 1 || head.SHA256 != sum(data) {
			t.Fatalf("head: %v %+v", err, head)
		}
		rows, err := b.List(ctx)
		if err != nil || len(rows) != 1 || rows[0].Name != "plan" || !rows[0].Valid {
			t.Fatalf("list: %v %+v", err, rows)
		}
		if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: data, Actor: store.ActorAgent}); code(err) != store.CodeAlreadyExists {
			t.Fatalf("create twice: %v", err)
		}
		if _, err := b.Read(ctx, "nothing"); code(err) != store.CodeNotFound {
			t.Fatalf("read a missing scene: %v", err)
		}
		if _, err := b.Read(ctx, "../etc"); code(err) != store.CodeInvalidName {
			t.Fatalf("a bad name: %v", err)
		}
	})
	t.Run("Fence", func(t *testing.T) {
		b := open(t)
		if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
			t.Fatal(err)
		}
		res, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), Actor: store.ActorUI})
		if err != nil || res.Revision != 2 {
			t.Fatalf("save over 1: %v %+v", err, res)
		}
		_, err = b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "c"), Actor: store.ActorUI})
		var e *store.Error
		if !errors.As(err, &e) || e.Code != store.CodeRevisionConflict || e.Details["currentRevision"] != int64(2) ||
			e.Details["currentSha256"] != res.SHA256 || e.Details["expectedRevision"] != int64(1) {
			t.Fatalf("a stale save: %v %+v", err, e)
		}
		if sc, _ := b.Read(ctx, "plan"); string(sc.Data) != string(Doc(1, "b")) {
			t.Fatal("a refused save changed the scene")
		}
		forced, err := b.Save(ctx, store.SaveRequest{Name: "plan", Force: true, Data: Doc(1, "d"), Actor: store.ActorUI})
		if err != nil || forced.Revision != 3 {
			t.Fatalf("a forced save: %v %+v", err, forced)
		}
	})
	t.Run("OneWinner", func(t *testing.T) {
		b := open(t)
		if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
			t.Fatal(err)
		}
		for round := int64(1); round <= 5; round++ {
			var wg sync.WaitGroup
			var mu sync.Mutex
			won, lost := 0, 0
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: round, Actor: store.ActorAgent,
						Mutate: func(*store.Scene) ([]byte, error) { return Doc(1, fmt.Sprintf("r%d-w%d", round, w)), nil }})
					mu.Lock()
					defer mu.Unlock()
					switch code(err) {
					case "":
						won++
					case store.CodeRevisionConflict:
						lost++
					default:
						t.Errorf("round %d: %v", round, err)
					}
				}()
			}
			wg.Wait()
			if won != 1 || lost != 7 {
				t.Fatalf("round %d: %d winners, %d conflicts", round, won, lost)
			}
		}
	})
	t.Run("RequestReplay", func(t *testing.T) {
		b := open(t)
		if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
			t.Fatal(err)
		}
		first, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), Actor: store.ActorUI, RequestID: "tab:1"})
		if err != nil {
			t.Fatal(err)
		}
		again, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), Actor: store.ActorUI, RequestID: "tab:1"})
		if err != nil || !again.Duplicate || again.Revision != first.Revision || again.SHA256 != first.SHA256 {
			t.Fatalf("a retried save: %v %+v", err, again)
		}
		if head, _ := b.Head(ctx, "plan"); head.Revision != 2 {
			t.Fatalf("the retry committed again: revision %d", head.Revision)
		}
	})
	t.Run("Unchanged", func(t *testing.T) {
		b := open(t)
		data := Doc(2, "a")
		if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: data, Actor: store.ActorAgent}); err != nil {
			t.Fatal(err)
		}
		res, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: data, Actor: store.ActorUI})
		if err != nil || !res.Unchanged || res.Revision != 1 {
			t.Fatalf("saving the same bytes: %v %+v", err, res)
		}
		boom := errors.New("no")
		if _, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 1, Actor: store.ActorAgent,
			Mutate: func(*store.Scene) ([]byte, error) { return nil, boom }}); !errors.Is(err, boom) {
			t.Fatalf("a failed mutation: %v", err)
		}
		if head, _ := b.Head(ctx, "plan"); head.Revision != 1 {
			t.Fatalf("nothing was to be written: revision %d", head.Revision)
		}
	})
	t.Run("Journal", func(t *testing.T) {
		b := open(t)
		attr := store.Attribution{Name: "claude", Bot: "claude", Person: "erin", Via: "batch_create", Note: "add a box"}
		if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: Doc(1, "a"), Actor: store.ActorAgent, Attribution: attr}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(2, "b"), Actor: store.ActorUI, RequestID: "tab:7"}); err != nil {
			t.Fatal(err)
		}
		page, err := b.Log(ctx, store.LogQuery{Name: "plan"})
		if err != nil || len(page.Entries) != 2 {
			t.Fatalf("log: %v %+v", err, page)
		}
		newest, oldest := page.Entries[0], page.Entries[1]
		if newest.Revision != 2 || newest.Actor != "ui" || newest.RequestID != "tab:7" || newest.PreviousRevision != 1 {
			t.Fatalf("the save's entry: %+v", newest)
		}
		if oldest.Revision != 1 || oldest.Name != "claude" || oldest.Bot != "claude" || oldest.Person != "erin" || oldest.Via != "batch_create" || oldest.Note != "add a box" {
			t.Fatalf("the create's entry: %+v", oldest)
		}
		e, _, err := b.Commit(ctx, "plan", newest.Commit)
		if err != nil || e.Revision != 2 {
			t.Fatalf("commit %s: %v %+v", newest.Commit, err, e)
		}
		if data, err := b.ReadRevision(ctx, "plan", 1); err != nil || string(data) != string(Doc(1, "a")) {
			t.Fatalf("revision 1: %v %q", err, data)
		}
	})
}
