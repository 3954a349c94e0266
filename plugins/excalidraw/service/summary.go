package service

import (
	"math"
	"slices"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// maxSummaryText bounds the text shown per element in a summary: an agent
// pays for every token, and the full text is one full read away.
const maxSummaryText = 200

// Summary is the compact view of a scene for agents. Deleted tombstones
// are left out (they are invisible and cannot be edited) and only counted
// in DeletedCount, so a long-edited scene does not cost more to read than
// what is on the canvas.
type Summary struct {
	Elements     []ElementSummary `json:"elements"`
	FileIDs      []string         `json:"fileIds"`
	DeletedCount int              `json:"deletedCount,omitempty"`
}

// ElementSummary is one live element: geometry rounded to 2 decimals,
// and for text its originalText (what was written, before wrapping),
// truncated to maxSummaryText characters.
type ElementSummary struct {
	ID        string  `json:"id"`
	Type      string  `json:"type"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Width     float64 `json:"width"`
	Height    float64 `json:"height"`
	Text      string  `json:"text,omitempty"`
	IsDeleted bool    `json:"isDeleted,omitempty"`
}

// summarize describes the live elements of doc, optionally only those of
// one type (elementType "") or only those with the given ids (only nil
// means all).
func summarize(doc *scene.Document, elementType string, only map[string]bool) *Summary {
	sum := &Summary{Elements: []ElementSummary{}, FileIDs: []string{}}
	if ids := doc.Files().Keys(); len(ids) > 0 { // [] rather than null when none
		sum.FileIDs = slices.Clone(ids)
	}
	if only != nil && elementType == "" { // a write's summary of what it named
		els, deleted := doc.Select(only)
		sum.DeletedCount = deleted
		for _, el := range els {
			sum.Elements = append(sum.Elements, elementSummary(el))
		}
		return sum
	}
	for _, el := range doc.Elements() {
		if el == nil {
			continue
		}
		if del, _ := el.Bool("isDeleted"); del {
			sum.DeletedCount++
			continue
		}
		// Filter before describing: a summary of one type of a large
		// scene looks at every element but describes only its own.
		if elementType != "" {
			if typ, _ := el.String("type"); typ != elementType {
				continue
			}
		}
		if only != nil {
			if id, _ := el.String("id"); !only[id] {
				continue
			}
		}
		sum.Elements = append(sum.Elements, elementSummary(el))
	}
	return sum
}

func elementSummary(el *ojson.Object) ElementSummary {
	es := ElementSummary{}
	es.ID, _ = el.String("id")
	es.Type, _ = el.String("type")
	es.X = round2(scene.NumberOf(el, "x"))
	es.Y = round2(scene.NumberOf(el, "y"))
	es.Width = round2(scene.NumberOf(el, "width"))
	es.Height = round2(scene.NumberOf(el, "height"))
	if es.Type == "text" {
		text, ok := el.String("originalText")
		if !ok {
			text, _ = el.String("text")
		}
		es.Text = truncate(text, maxSummaryText)
	}
	return es
}

func round2(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return math.Round(f*100) / 100
}

// truncate cuts s to n characters, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
