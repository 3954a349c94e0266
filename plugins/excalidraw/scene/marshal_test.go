package scene

import (
	"strings"
	"testing"
)

func TestMarshalFiltersAppStateAndKeepsTheRest(t *testing.T) {
	in := `{"source":"s","type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"r","custom":{"z":1,"a":2}}],"appState":{"gridSize":20,"zoom":{"value":2},"viewBackgroundColor":"#123456","theme":"dark"},"after":[1,2]}`
	d := mustParse(t, []byte(in))
	want := `{
  "source": "s",
  "type": "excalidraw",
  "version": 2,
  "elements": [
    {
      "type": "rectangle",
      "id": "r",
      "custom": {
        "z": 1,
        "a": 2
      }
    }
  ],
  "appState": {
    "gridSize": 20,
    "viewBackgroundColor": "#123456",
    "gridModeEnabled": false
  },
  "after": [
    1,
    2
  ]
}`
	if got := string(mustMarshal(t, d)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if !d.AppState().Has("zoom") {
		t.Error("Marshal must not modify the document's appState")
	}
}

func TestMarshalAddsMissingMembers(t *testing.T) {
	d := mustParse(t, []byte(`{"type":"excalidraw","version":2}`))
	got := string(mustMarshal(t, d))
	for _, want := range []string{`"elements": []`, `"viewBackgroundColor": "#ffffff"`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, `"files"`) {
		t.Errorf("files was absent and is empty: it stays absent\n%s", got)
	}
	d.Files().Set("f", fileEntry("f"))
	if got := string(mustMarshal(t, d)); !strings.Contains(got, `"files": {`) {
		t.Errorf("files with content must be written\n%s", got)
	}
}

func TestMarshalIsStable(t *testing.T) {
	d := validScene()
	once := mustMarshal(t, d)
	twice := mustMarshal(t, mustParse(t, once))
	if string(once) != string(twice) {
		t.Fatal("Marshal ∘ Parse is not the identity on our own output")
	}
	if strings.HasSuffix(string(once), "\n") {
		t.Error("Excalidraw writes no trailing newline")
	}
}
