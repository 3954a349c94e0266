package editor

import (
	"io/fs"
	"strings"
	"testing"

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
