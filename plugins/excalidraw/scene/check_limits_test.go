package scene

import (
	"errors"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestTextLengthCountsCharacters(t *testing.T) {
	tx := textEl("t", "").Set("text", strings.Repeat("é", 5)).Set("originalText", strings.Repeat("é", 5))
	only(t, Validate(docOf(tx), Limits{MaxTextLength: 5})) // 10 bytes, 5 characters
	tx.Set("originalText", strings.Repeat("é", 6))
	rep := Validate(docOf(tx), Limits{MaxTextLength: 5})
	only(t, rep, CodeTextTooLong)
	if rep.Diagnostics[0].Pointer != "/elements/0/originalText" {
		t.Error(rep.Diagnostics[0])
	}
}

func TestTextLengthOnlyForText(t *testing.T) {
	r := rect("r").Set("text", "long enough")
	only(t, Validate(docOf(r), Limits{MaxTextLength: 3}))
}

// TestElementLimitCountsLiveElements: tombstones do not count against
// MaxElements, so deleting elements brings a scene back under it.
func TestElementLimitCountsLiveElements(t *testing.T) {
	d := docOf(rect("a"), rect("b").Set("isDeleted", true))
	only(t, Validate(d, Limits{MaxElements: 1}))
	d = docOf(rect("a"), rect("b").Set("isDeleted", true), rect("c"))
	rep := Validate(d, Limits{MaxElements: 1})
	only(t, rep, CodeTooManyElements)
	if got := rep.Diagnostics[0].Message; got != "the scene has 2 elements; the limit is 1 (maxElements)" {
		t.Fatal(got)
	}
}

// TestLimitErrorsNameTheLimit: every limit diagnostic turns into the
// limit's error, with details naming the config key, its value and the
// scene's, and the diagnostic's own pointer.
func TestLimitErrorsNameTheLimit(t *testing.T) {
	withFiles := func(n int) *Document {
		d := docOf(rect("r"))
		for i := range n {
			id := string(rune('a' + i))
			d.Files().Set(id, fileEntry(id))
		}
		return d
	}
	for _, tc := range []struct {
		doc      *Document
		lim      Limits
		code     sceneerr.Code
		limit    string
		max, act int64
		pointer  string
	}{
		{docOf(rect("a"), rect("b")), Limits{MaxElements: 1}, sceneerr.TooManyElements, "maxElements", 1, 2, "/elements"},
		{docOf(textEl("t", "").Set("text", "abcdef").Set("originalText", "abcdef")), Limits{MaxTextLength: 5}, sceneerr.TooLarge, "maxTextLength", 5, 6, "/elements/0/text"},
		{withFiles(3), Limits{MaxFiles: 2}, sceneerr.TooLarge, "maxFiles", 2, 3, "/files"},
		{withFiles(1), Limits{MaxFileBytes: 10}, sceneerr.TooLarge, "maxFileBytes", 10, int64(len(pngURL)), "/files"},
	} {
		err := Validate(tc.doc, tc.lim).Err()
		var se *sceneerr.Error
		if !errors.As(err, &se) || se.Code != tc.code {
			t.Fatalf("%s: %v", tc.limit, err)
		}
		if se.Details["limit"] != tc.limit || se.Details["max"] != tc.max || se.Details["actual"] != tc.act || se.Details["pointer"] != tc.pointer {
			t.Errorf("%s: details %v", tc.limit, se.Details)
		}
		if !strings.Contains(se.Message, "would have") || !strings.HasSuffix(se.Message, "("+tc.limit+")") {
			t.Errorf("%s: message %q", tc.limit, se.Message)
		}
	}
	_, err := Parse(mustMarshal(t, docOf(rect("a"))), Limits{MaxSceneBytes: 10})
	var se *sceneerr.Error
	if !errors.As(err, &se) || se.Code != sceneerr.TooLarge || se.Details["limit"] != "maxSceneBytes" || se.Details["max"] != int64(10) {
		t.Fatalf("bytes on parse: %v %v", err, se)
	}
	_, err = Codec{Limits: Limits{MaxSceneBytes: 10}}.Encode(docOf(rect("a")))
	if !errors.As(err, &se) || se.Code != sceneerr.TooLarge || se.Details["limit"] != "maxSceneBytes" || se.Details["actual"].(int64) <= 10 {
		t.Fatalf("bytes on encode: %v %v", err, se)
	}
}
