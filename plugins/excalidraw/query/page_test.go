package query

import (
	"encoding/json"
	"strings"
	"testing"
)

func items(n int) []json.RawMessage {
	out := make([]json.RawMessage, n)
	for i := range out {
		out[i] = json.RawMessage(`{"id":"` + strings.Repeat("x", i%7) + `é"}`)
	}
	return out
}

// Following nextCursor from the first page visits every item once, in
// order, each page within the budget.
func TestPageRoundTrip(t *testing.T) {
	all := items(50)
	var got []json.RawMessage
	cursor, pages := "", 0
	for {
		p, err := Page(all, 60, cursor, 7)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != 50 || p.Offset != len(got) {
			t.Fatalf("page %d: offset %d total %d", pages, p.Offset, p.Total)
		}
		arr, _ := json.Marshal(p.Items)
		if n := len([]rune(string(arr))); n > 60 {
			t.Fatalf("page %d is %d characters", pages, n)
		}
		got = append(got, p.Items...)
		pages++
		if p.NextCursor == "" {
			break
		}
		cursor = p.NextCursor
	}
	if len(got) != 50 || pages < 5 {
		t.Fatalf("%d items in %d pages", len(got), pages)
	}
	for i := range got {
		if string(got[i]) != string(all[i]) {
			t.Fatalf("item %d", i)
		}
	}
	// No limit: one page. One item over the limit: still one per page.
	if p, _ := Page(all, 0, "", 7); len(p.Items) != 50 || p.NextCursor != "" {
		t.Fatal("maxChars 0 must mean no limit")
	}
	if p, _ := Page(all, 1, "", 7); len(p.Items) != 1 || p.NextCursor == "" {
		t.Fatal("every page holds at least one item")
	}
	if p, _ := Page(nil, 10, "", 7); p.Items == nil || len(p.Items) != 0 || p.NextCursor != "" {
		t.Fatal("empty")
	}
	_, err := Page(all, -1, "", 7)
	wantInvalid(t, err, "/max_chars")
}

// A cursor continues only the selection it came from.
func TestPageForeignCursor(t *testing.T) {
	all := items(20)
	p, _ := Page(all, 40, "", 3)
	if p.NextCursor == "" {
		t.Fatal("expected more pages")
	}
	// Another revision of the same scene.
	_, err := Page(all, 40, p.NextCursor, 4)
	se := wantInvalid(t, err, "/cursor")
	if se.Details["cursorRevision"] != int64(3) || se.Details["revision"] != int64(4) || !strings.Contains(se.Message, "revision 3") {
		t.Fatalf("%v %v", se, se.Details)
	}
	// Another selection (another scene, target or fields) at the same revision.
	other := items(21)
	_, err = Page(other, 40, p.NextCursor, 3)
	se = wantInvalid(t, err, "/cursor")
	if !strings.Contains(se.Message, "another selection") {
		t.Fatal(se)
	}
	changed := items(20)
	changed[19] = json.RawMessage(`{"id":"changed"}`)
	_, err = Page(changed, 40, p.NextCursor, 3)
	wantInvalid(t, err, "/cursor")
	// Not a cursor at all, or one tampered with.
	raw := []byte(p.NextCursor)
	raw[len(raw)-1] ^= 1
	for _, bad := range []string{"nope", "AA", "!!!!", string(raw), p.NextCursor + "AA"} {
		_, err := Page(all, 40, bad, 3)
		wantInvalid(t, err, "/cursor")
	}
	// The real one still works.
	if q, err := Page(all, 40, p.NextCursor, 3); err != nil || q.Offset != len(p.Items) {
		t.Fatal(err)
	}
}

func TestEncodeRows(t *testing.T) {
	all := elements(t, `[{"id":"a<b>&","type":"text","x":0,"y":0,"width":50,"height":20,"text":"x < y && z"}]`)
	rows, _ := Rows(all, all, nil)
	enc := EncodeRows(rows)
	if string(enc[0]) != `{"id":"a<b>&","type":"text","x":0,"y":0,"w":50,"h":20,"text":"x < y && z"}` {
		t.Fatal(string(enc[0]))
	}
}
