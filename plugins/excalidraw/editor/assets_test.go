package editor

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// TestAssetsAreBuiltAndOffline checks the embedded build when it exists
// (CI builds it before testing): the page, its bundle, every font family
// Excalidraw 0.18 loads, and no reference to a CDN in the page itself.
func TestAssetsAreBuiltAndOffline(t *testing.T) {
	a := Assets()
	if a == nil {
		testenv.Missing(t, "editor not built; run make editor (make test builds it)")
	}
	index, err := fs.ReadFile(a, IndexFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, cdn := range []string{"unpkg.com", "esm.sh", "jsdelivr", "https://"} {
		if strings.Contains(string(index), cdn) {
			t.Errorf("index.html refers to %s", cdn)
		}
	}
	if !strings.Contains(string(index), `src="/dsh-excalidraw/assets/app/`) {
		t.Errorf("index.html does not load its bundle from the plugin's asset route:\n%s", index)
	}
	for _, family := range []string{"Virgil", "Excalifont", "Cascadia", "Nunito", "Lilita", "ComicShanns", "Liberation", "Xiaolai"} {
		entries, err := fs.ReadDir(a, "fonts/"+family)
		if err != nil || len(entries) == 0 {
			t.Errorf("font family %s missing: %v", family, err)
		}
	}
}

// hashedName is how Vite names what it writes under app/: the file's
// name, a dash and eight characters of its content's hash.
var hashedName = regexp.MustCompile(`-[A-Za-z0-9_-]{8}\.[a-z0-9]+$`)

// TestAssetsCompressed checks the build's compressed copies
// (web/compress.mjs), which the plugin serves instead of the files: every
// compressible file of more than a kilobyte has a brotli and a gzip copy,
// smaller than it, that decodes to its bytes; no copy is left without
// its file; and every file under app/, which the plugin lets browsers
// keep forever, has a content hash in its name.
func TestAssetsCompressed(t *testing.T) {
	a := Assets()
	if a == nil {
		testenv.Missing(t, "editor not built; run make editor (make test builds it)")
	}
	compressible := map[string]bool{".js": true, ".css": true, ".html": true, ".svg": true, ".json": true, ".wasm": true, ".ttf": true, ".otf": true}
	var plain, br, gz int64
	err := fs.WalkDir(a, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, suffix := range []string{".br", ".gz"} {
			if original, ok := strings.CutSuffix(p, suffix); ok {
				if _, err := fs.Stat(a, original); err != nil {
					t.Errorf("%s has no %s", p, original)
				}
				return nil
			}
		}
		if strings.HasPrefix(p, "app/") && !hashedName.MatchString(p) {
			t.Errorf("%s is kept forever by browsers but has no content hash in its name", p)
		}
		info, err := d.Info()
		if err != nil || !compressible[strings.ToLower(path.Ext(p))] || info.Size() <= 1024 {
			return err
		}
		data, err := fs.ReadFile(a, p)
		if err != nil {
			return err
		}
		plain += int64(len(data))
		for _, c := range []struct {
			suffix string
			total  *int64
			reader func(io.Reader) (io.Reader, error)
		}{
			{".br", &br, func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
			{".gz", &gz, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		} {
			packed, err := fs.ReadFile(a, p+c.suffix)
			if err != nil {
				t.Errorf("%s: no %s copy", p, c.suffix)
				continue
			}
			*c.total += int64(len(packed))
			r, err := c.reader(bytes.NewReader(packed))
			if err == nil {
				var out []byte
				if out, err = io.ReadAll(r); err == nil && !bytes.Equal(out, data) {
					err = fmt.Errorf("decodes to %d bytes that differ from the file's %d", len(out), len(data))
				}
			}
			if err != nil {
				t.Errorf("%s%s: %v", p, c.suffix, err)
			} else if len(packed) >= len(data) {
				t.Errorf("%s%s is %d bytes, the file %d", p, c.suffix, len(packed), len(data))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compressible files: %d bytes, %d as brotli, %d as gzip", plain, br, gz)
}
