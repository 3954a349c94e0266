package lint

import "testing"

// Text is measured with the element's own lineHeight, not its family's
// default: a fixed-width text whose line height is 1 is as tall as its
// lines at 1 (no overflow), and a label whose line height is 2 needs a
// container twice as tall per line as at 1.
func TestTextOverflowUsesTheElementsLineHeight(t *testing.T) {
	tight := text("tight", 0, 0, "line one\nline two", kv{"autoResize": false, "width": 500.0, "lineHeight": 1.0, "height": 40.0})
	none(t, Run(list(tight), only(CodeTextOverflow)), CodeTextOverflow)

	c := rectangle("c", 0, 0, 200, 70)
	l := label(c, "l", "one\ntwo", kv{"lineHeight": 2.0, "height": 80.0})
	f := expect(t, Run(list(c, l), only(CodeTextOverflow)), CodeTextOverflow, "c", "l")
	if h, _ := f.Suggestion["height"].(float64); h < 80 {
		t.Errorf("suggestion %v: a 2-line label at 20 px and line height 2 needs 80 px and padding", f.Suggestion)
	}
}
