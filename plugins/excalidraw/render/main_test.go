package render_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh/internal/e2e/rendercheck"
	"github.com/dshgo/dsh/plugins/excalidraw/render/rendertest"
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

// editorFonts is Excalidraw's fonts from the built editor (rendertest).
var editorFonts = rendertest.Fonts
