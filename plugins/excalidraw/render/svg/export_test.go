package svg

import (
	"io"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
)

// NumberForTest exposes the number format to the external tests.
func NumberForTest(f float64) string { return n(f) }

// WriteWholeFontsForTest is Write embedding whole font files, the
// reference a subset's picture is compared with.
func WriteWholeFontsForTest(out io.Writer, pic *render.Picture, fs *fonts.Set) error {
	return write(out, pic, fs, false)
}
