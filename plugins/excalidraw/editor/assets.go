package editor

import (
	"embed"
	"io/fs"
)

// dist is the built page. dist/.keep is committed so the package compiles
// before the first build; dist/app is what `make editor` produces.
//
//go:embed all:dist
var dist embed.FS

// IndexFile is the page's entry point inside Assets.
const IndexFile = "index.html"

// Assets returns the built page (index.html, the bundle under app/, the
// fonts under fonts/, and a .br and a .gz copy beside each compressible
// file, which the plugin sends to browsers accepting them), or nil when
// the page has not been built, in which case the plugin serves an
// explanation instead of a blank page.
func Assets() fs.FS {
	sub, err := fs.Sub(dist, "dist/app")
	if err != nil {
		return nil
	}
	if _, err := fs.Stat(sub, IndexFile); err != nil {
		return nil
	}
	return sub
}

// Fonts returns Excalidraw's font files from the built page (fonts/,
// laid out as the package's dist/prod/fonts), or nil when the page has
// not been built.
func Fonts() fs.FS {
	a := Assets()
	if a == nil {
		return nil
	}
	sub, err := fs.Sub(a, "fonts")
	if err != nil {
		return nil
	}
	return sub
}
