package loader

import "testing"

func TestMapCatalog(t *testing.T) {
	var cat Catalog = MapCatalog{"a": []byte(`{}`), "free": nil}
	if s, ok := cat.ConfigSchema("a"); !ok || string(s) != "{}" {
		t.Fatalf("a: %q %v", s, ok)
	}
	if s, ok := cat.ConfigSchema("free"); !ok || s != nil {
		t.Fatalf("free: %q %v", s, ok)
	}
	if _, ok := cat.ConfigSchema("missing"); ok {
		t.Fatal("missing plugin found")
	}
}
