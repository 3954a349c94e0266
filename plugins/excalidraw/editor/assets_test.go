package editor

import (
	"io/fs"
	"os"
	"strings"
	"testing"
)

// TestAssetsAreBuiltAndOffline checks the embedded build when it exists
// (CI builds it before testing): the page, its bundle, every font family
// Excalidraw 0.18 loads, and no reference to a CDN in the page itself.
func TestAssetsAreBuiltAndOffline(t *testing.T) {
	a := Assets()
	if a == nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("editor not built; make test builds it with make editor")
		}
		t.Skip("editor not built; run make editor")
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
