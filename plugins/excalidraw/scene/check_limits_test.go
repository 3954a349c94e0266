package scene

import (
	"strings"
	"testing"
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

func TestElementLimitCountsTombstones(t *testing.T) {
	d := docOf(rect("a"), rect("b").Set("isDeleted", true))
	only(t, Validate(d, Limits{MaxElements: 1}), CodeTooManyElements)
}
