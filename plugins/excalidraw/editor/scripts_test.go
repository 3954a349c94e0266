package editor_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// scriptSamples are texts in scripts Excalidraw's fonts do not all cover,
// drawn by the browser with its fallback fonts.
var scriptSamples = []string{
	"مرحبا بالعالم",       // Arabic: joining forms
	"لا إله إلا",          // Arabic: lam-alef ligatures
	"Γειά σου κόσμε",      // Greek
	"Привет, мир",         // Cyrillic
	"שלום עולם",           // Hebrew
	"Բարեւ աշխարհ",        // Armenian
	"Hello κόσμε, мир!",   // Latin mixed with fallback runs
	"Straße — naïve café", // Latin with what every family has
}

// TestNonLatinTextWidths: text in Arabic, Greek, Cyrillic, Hebrew and
// Armenian, in every font family, measured by textmetrics as Chromium
// measures it in the editor page with Excalidraw's fonts loaded. Glyphs a
// family lacks are drawn with the declared fallback (Liberation Serif, then
// DejaVu Sans); the widths agree within 0.5%. (With the old rule — an
// Arial-width guess — Arabic was 31–33% too wide, Greek and Cyrillic
// 3–11% in some families.)
func TestNonLatinTextWidths(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "scripts"})
	w.openScene(w.browser, "scripts")

	type job struct {
		Font string `json:"font"`
		Text string `json:"text"`
	}
	var jobs []job
	for _, f := range textmetrics.Families() {
		for _, s := range scriptSamples {
			jobs = append(jobs, job{textmetrics.FontString(f, 20), s})
		}
	}
	in, _ := json.Marshal(jobs)
	got := evalJS[[]float64](w, w.browser, fmt.Sprintf(`(async () => {
		const jobs = %s;
		const ctx = document.createElement("canvas").getContext("2d");
		const out = [];
		for (const j of jobs) {
			await document.fonts.load(j.font, j.text);
			ctx.font = j.font;
			out.push(ctx.measureText(j.text).width);
		}
		return out;
	})()`, in))

	worst := 0.0
	i := 0
	for _, f := range textmetrics.Families() {
		for _, s := range scriptSamples {
			want := got[i]
			i++
			have := textmetrics.MeasureLine(s, f, 20)
			rel := math.Abs(have-want) / want
			worst = max(worst, rel)
			if rel > 0.005 {
				t.Errorf("%-15v %-22q textmetrics %7.3f px, Chromium %7.3f px (%+.2f%%)", f, s, have, want, 100*(have-want)/want)
			}
		}
	}
	t.Logf("worst width difference over %d family × script samples: %.3f%%", len(jobs), 100*worst)
}
