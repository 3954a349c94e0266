package editor_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The thumbnails' URLs: the scene's thumbnail route (its cached picture).
var (
	renderSrc     = regexp.MustCompile(`^http://[^/]+/dsh-excalidraw/api/scenes/[^/]+/thumbnail\.png\?`)
	renderRequest = regexp.MustCompile(`^GET /dsh-excalidraw/api/scenes/([^/]+)/thumbnail\.png$`)
)

// thumbSrcJS is what a thumbnail image was fetched from, absolute, with
// the revision it shows appended as rev=N (the image itself is a blob:).
const thumbSrcJS = `(new URL(img.dataset.url, location.href).href + "&rev=" + img.dataset.rev)`

// thumbJS finds a scene's thumbnail box (.dsh-thumb) in the list.
func thumbJS(name string) string {
	return sceneButtonJS(name) + `?.querySelector('[data-testid="thumb"]')`
}

// thumbInfo is what the page shows of one thumbnail.
type thumbInfo struct {
	State   string  `json:"state"` // the box's data-state: empty, loading, refreshing, loaded, error
	Src     string  `json:"src"`   // the URL the image was fetched from and its revision (rev=N), "" without an image
	Alt     string  `json:"alt"`
	Loading string  `json:"loading"`
	Natural [2]int  `json:"natural"` // naturalWidth, naturalHeight
	Box     [2]int  `json:"box"`     // the box's CSS size
	Shown   [2]int  `json:"shown"`   // the image element's CSS size
	Opacity float64 `json:"opacity"`
}

func (w *world) thumb(tab context.Context, name string) thumbInfo {
	w.t.Helper()
	return evalJS[thumbInfo](w, tab, fmt.Sprintf(`(() => {
		const box = %s;
		if (!box) return {state: "missing"};
		const img = box.querySelector("img");
		const r = box.getBoundingClientRect();
		const out = {state: box.dataset.state, box: [Math.round(r.width), Math.round(r.height)], src: "", alt: "", loading: "", natural: [0, 0], shown: [0, 0], opacity: 0};
		if (img) {
			const s = img.getBoundingClientRect();
			Object.assign(out, {src: %s, alt: img.alt, loading: img.loading, natural: [img.naturalWidth, img.naturalHeight],
				shown: [Math.round(s.width), Math.round(s.height)], opacity: Number(getComputedStyle(img).opacity)});
		}
		return out;
	})()`, thumbJS(name), thumbSrcJS))
}

// thumbLoadedJS: the scene's thumbnail shows a picture that loaded from a
// URL containing want.
func thumbLoadedJS(name, want string) string {
	return fmt.Sprintf(`(() => {
		const box = %s, img = box?.querySelector("img");
		return !!img && box.dataset.state === "loaded" && img.complete && img.naturalWidth > 0 && %s.includes(%q);
	})()`, thumbJS(name), thumbSrcJS, want)
}

// TestSceneListThumbnails: the scene list shows each scene as dsh draws
// it (its render route), letterboxed in a fixed box, lazily loaded, with the
// scene's name as its alt text; an empty scene gets a placeholder and no
// request. When an agent changes a scene, its thumbnail (and only its)
// moves to the new revision's picture without a page reload; one that can
// no longer be drawn falls back to the placeholder. In Excalidraw's dark
// theme the thumbnails are drawn dark, and the next scene opens dark.
func TestSceneListThumbnails(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "alpha", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 160, "height": 90, "backgroundColor": "#a5d8ff", "fillStyle": "solid", "label": map[string]any{"text": "alpha"}},
		map[string]any{"type": "ellipse", "id": "dot", "x": 220, "y": 10, "width": 70, "height": 70, "backgroundColor": "#ffc9c9", "fillStyle": "solid"},
		map[string]any{"type": "arrow", "id": "link", "startElementId": "box", "endElementId": "dot"},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "beta", "elements": []any{
		map[string]any{"type": "diamond", "id": "d", "x": 0, "y": 0, "width": 120, "height": 120, "backgroundColor": "#b2f2bb", "fillStyle": "solid"},
		map[string]any{"type": "text", "id": "t", "x": 0, "y": 150, "text": "a tall one"},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "blank"})
	w.tool("excalidraw_scene_create", map[string]any{"name": "gone", "elements": []any{
		map[string]any{"type": "rectangle", "id": "only", "x": 0, "y": 0, "width": 80, "height": 40},
	}})
	tab := w.browser
	for _, n := range []string{"alpha", "beta", "gone"} {
		w.waitJS(tab, "the thumbnail of "+n, thumbLoadedJS(n, "rev=1"))
	}
	evalJS[bool](w, tab, `(window.dshSamePage = true)`)

	alpha, beta := w.thumb(tab, "alpha"), w.thumb(tab, "beta")
	if n := evalJS[int](w, tab, `document.querySelectorAll('.dsh-scenes [data-testid="thumb"] img').length`); n != 3 {
		t.Errorf("%d thumbnail images, want 3 (alpha, beta, gone; none for blank)", n)
	}
	for name, th := range map[string]thumbInfo{"alpha": alpha, "beta": beta} {
		if th.Alt != name || th.Loading != "lazy" || th.Natural[0] == 0 || th.Shown[0] == 0 || th.Opacity == 0 {
			t.Errorf("%s: %+v, want alt %q, loading lazy, a loaded picture, shown", name, th, name)
		}
		if !renderSrc.MatchString(th.Src) || !strings.Contains(th.Src, "/scenes/"+name+"/") {
			t.Errorf("%s: src %q is not the scene's render route", name, th.Src)
		}
		for _, want := range []string{"max_pixels=", "dark=false", "rev=1"} {
			if !strings.Contains(th.Src, want) {
				t.Errorf("%s: src %q lacks %q", name, th.Src, want)
			}
		}
		// A fixed box, the same for every scene, about 200 × 120.
		if th.Box != alpha.Box || th.Box[0] < 150 || th.Box[0] > 202 || th.Box[1] != 120 {
			t.Errorf("%s: box %v, want the same ~200 × 120 box as alpha's %v", name, th.Box, alpha.Box)
		}
	}
	// Letterboxed: the picture keeps its aspect ratio. alpha is wide,
	// beta tall; neither is stretched to the box.
	if a, b := ratio(alpha.Natural), ratio(beta.Natural); a <= ratio(alpha.Box) || b >= ratio(beta.Box) {
		t.Errorf("pictures: alpha %v (ratio %.2f), beta %v (ratio %.2f) in a %v box: want alpha wider than the box, beta taller", alpha.Natural, a, beta.Natural, b, alpha.Box)
	}
	if b := w.thumb(tab, "blank"); b.State != "empty" || b.Src != "" {
		t.Errorf("blank: %+v, want the empty placeholder and no image", b)
	}
	w.keepScreenshot(tab, "scene-list-thumbnails")

	// An agent changes alpha: its row moves to r2 and its thumbnail to the
	// r2 picture (now much wider), in place.
	w.tool("excalidraw_scene_apply", map[string]any{"name": "alpha", "expected_revision": 1, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "rectangle", "id": "far", "x": 900, "y": 0, "width": 160, "height": 90, "backgroundColor": "#ffec99", "fillStyle": "solid"}},
	}})
	w.waitJS(tab, "alpha's thumbnail at r2", thumbLoadedJS("alpha", "rev=2"))
	alpha2 := w.thumb(tab, "alpha")
	if alpha2.Src == alpha.Src || !strings.Contains(alpha2.Src, "rev=2") || ratio(alpha2.Natural) <= ratio(alpha.Natural)*1.5 {
		t.Errorf("alpha after the change: %+v, before %+v: want the r2 URL and a wider picture", alpha2, alpha)
	}
	if b := w.thumb(tab, "beta"); b.Src != beta.Src || b.State != "loaded" {
		t.Errorf("beta moved with alpha's change: %+v", b)
	}
	if !evalJS[bool](w, tab, `window.dshSamePage === true`) {
		t.Fatal("the page reloaded")
	}

	// A burst of commits to alpha: the page does not ask for a picture per
	// revision (the list stream moves the row at each), only every few
	// seconds, and ends on the burst's last revision.
	alphaThumbs := func() int {
		n := 0
		for _, r := range w.requests(tab) {
			if m := renderRequest.FindStringSubmatch(r); m != nil && m[1] == "alpha" {
				n++
			}
		}
		return n
	}
	before, start := alphaThumbs(), time.Now()
	const burst = 12
	for i := range burst {
		w.tool("excalidraw_scene_apply", map[string]any{"name": "alpha", "expected_revision": 2 + i, "operations": []any{
			map[string]any{"op": "update", "id": "far", "patch": map[string]any{"y": 10 * (i + 1)}},
		}})
	}
	w.waitJS(tab, "alpha's thumbnail at the burst's last revision", thumbLoadedJS("alpha", fmt.Sprintf("rev=%d", 2+burst)))
	took := time.Since(start)
	if n, most := alphaThumbs()-before, 2+int(took/(3*time.Second)); n > most {
		t.Errorf("%d thumbnail requests for a burst of %d commits over %v, want at most %d (one every 3 s)", n, burst, took.Round(time.Millisecond), most)
	}

	// Everything of "gone" deleted: the route has nothing to draw (404),
	// so the box falls back to the placeholder, without a broken image.
	w.tool("excalidraw_scene_apply", map[string]any{"name": "gone", "expected_revision": 1, "operations": []any{
		map[string]any{"op": "delete", "id": "only"},
	}})
	w.waitJS(tab, "gone's placeholder", fmt.Sprintf(`(() => {
		const box = %s;
		return ["error", "empty"].includes(box.dataset.state) && box.closest(".dsh-scene").querySelector('[data-testid="rev"]').textContent === "r2";
	})()`, thumbJS("gone")))
	if g := w.thumb(tab, "gone"); g.State == "error" && g.Shown != [2]int{0, 0} {
		t.Errorf("gone: a failed picture is still shown: %+v", g)
	}

	// A request per picture, none for the empty scene.
	renders := map[string]int{}
	for _, r := range w.requests(tab) {
		if m := renderRequest.FindStringSubmatch(r); m != nil {
			renders[m[1]]++
		}
	}
	if renders["alpha"] < 2 || renders["beta"] < 1 || renders["blank"] != 0 {
		t.Errorf("render requests per scene: %v, want alpha twice or more, beta, none for blank", renders)
	}

	// Dark theme: open alpha and switch Excalidraw to dark (its menu's
	// toggle sets appState.theme). The thumbnails are drawn dark; the
	// theme is not saved with the scene; the next scene opens dark.
	w.clickScene(tab, "alpha")
	w.waitJS(tab, "alpha's editor", `window.dshEditor?.name === "alpha" && window.dshEditor.state().status === "saved"`)
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "dark"}}), true)`)
	for _, n := range []string{"alpha", "beta"} {
		w.waitJS(tab, n+"'s dark thumbnail", thumbLoadedJS(n, "dark=true"))
	}
	if !evalJS[bool](w, tab, `document.querySelector(".dsh-layout").classList.contains("dsh-dark")`) {
		t.Error("the sidebar is not in the dark theme")
	}
	w.keepScreenshot(tab, "scene-list-thumbnails-dark")
	if s := w.state(tab); s.Status != "saved" || s.Dirty || s.Revision != 2+burst {
		t.Errorf("switching the theme touched the scene: %+v", s)
	}
	w.clickScene(tab, "beta")
	w.waitJS(tab, "beta's editor, dark", `window.dshEditor?.name === "beta" && window.dshEditor.api.getAppState().theme === "dark"`)

	for _, r := range w.requests(tab) {
		if strings.HasPrefix(r, "PUT ") {
			t.Errorf("the thumbnails or the theme sent %s", r)
		}
	}
	w.noConsoleErrorsBut(tab, "/scenes/gone/thumbnail.") // its 404 after its last element went
	if !evalJS[bool](w, tab, `window.dshSamePage === true`) {
		t.Fatal("the page reloaded")
	}
}

func ratio(wh [2]int) float64 {
	if wh[1] == 0 {
		return 0
	}
	return float64(wh[0]) / float64(wh[1])
}
