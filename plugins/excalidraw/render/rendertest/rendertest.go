// Package rendertest is the renderer's test kit: Excalidraw's fonts from
// the built editor and pictures of a few elements, for the tests of the
// render packages and what draws with them.
package rendertest

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Fonts is Excalidraw's fonts from the built editor, or the test ends
// (skip or fail, see testenv).
func Fonts(t testing.TB) *fonts.Set {
	t.Helper()
	f := editor.Fonts()
	if f == nil {
		testenv.Missing(t, "the editor is not built (its fonts are Excalidraw's); run make editor")
	}
	return fonts.New(f)
}

// Picture draws a scene of the given elements (JSON objects) on a white
// background with the default options, dark or not.
func Picture(t testing.TB, dark bool, elements ...string) *render.Picture {
	t.Helper()
	d, err := scene.Parse([]byte(`{"type":"excalidraw","version":2,"source":"t","elements":[`+strings.Join(elements, ",")+
		`],"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`), scene.Limits{}.ForReading())
	if err != nil {
		t.Fatal(err)
	}
	o := render.DefaultOptions()
	o.Dark = dark
	pic, err := render.Draw(d, o)
	if err != nil {
		t.Fatal(err)
	}
	return pic
}
