package loader

import "testing"

func TestChildPointerEscapes(t *testing.T) {
	cases := map[string]string{
		"plain": "/config/plain",
		"a/b":   "/config/a~1b",
		"m~n":   "/config/m~0n",
		"~/":    "/config/~0~1",
	}
	for name, want := range cases {
		if got := childPointer("/config", name); got != want {
			t.Errorf("childPointer(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestIndexPointer(t *testing.T) {
	if got := indexPointer("/plugins", 3); got != "/plugins/3" {
		t.Fatalf("got %q", got)
	}
}

func TestFromSchemaLocation(t *testing.T) {
	cases := map[string]string{
		"":                  "",
		"#":                 "",
		"/maxElements":      "/maxElements",
		"/max%20size/0":     "/max size/0",
		"/a~1b/c~0d":        "/a~1b/c~0d",
		"#/nested/deep/key": "/nested/deep/key",
	}
	for in, want := range cases {
		if got := fromSchemaLocation(in); got != want {
			t.Errorf("fromSchemaLocation(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParentPointer(t *testing.T) {
	p, ok := parentPointer("/plugins/0/config")
	if !ok || p != "/plugins/0" {
		t.Fatalf("got %q %v", p, ok)
	}
	p, ok = parentPointer("/plugins")
	if !ok || p != "" {
		t.Fatalf("got %q %v", p, ok)
	}
	if _, ok := parentPointer(""); ok {
		t.Fatal("root has no parent")
	}
}
