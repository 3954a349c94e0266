package render_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh/internal/rendercheck"
	"github.com/dshgo/dsh/internal/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
)

// TestMain keeps one browser for the package's comparisons with
// Excalidraw (rendercheck.Main), and checks that painting leaves no
// goroutine behind.
func TestMain(m *testing.M) {
	code := rendercheck.Main(m)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// editorFonts is Excalidraw's fonts from the built editor, or the test
// ends (skip-or-fail, see testenv).
func editorFonts(t testing.TB) *fonts.Set {
	t.Helper()
	f := editor.Fonts()
	if f == nil {
		testenv.Missing(t, "the editor is not built (its fonts are Excalidraw's); run make editor")
	}
	return fonts.New(f)
}
