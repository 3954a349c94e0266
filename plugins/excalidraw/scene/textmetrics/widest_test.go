package textmetrics

import (
	"strings"
	"testing"
)

// TestWidestWordKeepsWordsWhole: wrapped to WidestWord, no word is split;
// a pixel less splits the widest one.
func TestWidestWordKeepsWordsWhole(t *testing.T) {
	for _, text := range []string{"Authentication service", "PostgreSQL", "client-server architecture", "a\nObservability stack"} {
		w := WidestWord(text, DefaultFamily, 20)
		wrapped := Wrap(text, DefaultFamily, 20, w)
		for _, word := range strings.Fields(strings.NewReplacer("-", "- ").Replace(text)) {
			if !strings.Contains(wrapped, word) {
				t.Errorf("%q wrapped to %g: %q splits %q", text, w, wrapped, word)
			}
		}
		split := false
		narrower := Wrap(text, DefaultFamily, 20, w-1)
		for _, word := range strings.Fields(strings.NewReplacer("-", "- ").Replace(text)) {
			split = split || !strings.Contains(narrower, word)
		}
		if !split {
			t.Errorf("%q wrapped to %g: %q splits no word", text, w-1, narrower)
		}
	}
}
