package build

import "testing"

func TestNormalizeLink(t *testing.T) {
	ok := []struct{ in, want string }{
		{"https://excalidraw.com", "https://excalidraw.com"},
		{"  https://example.com/a b  ", "https://example.com/a b"},
		{`https://example.com/?q="x"`, "https://example.com/?q=%22x%22"},
		{"/relative/path", "/relative/path"},
		{"./javascript:thing", "./javascript:thing"},
		{"mailto:someone@example.com", "mailto:someone@example.com"},
		{"https://example.com/?u=data:x", "https://example.com/?u=data:x"},
		{"no scheme at all", "no scheme at all"},
	}
	for _, c := range ok {
		s := c.in
		got, err := normalizeLink(&s)
		if err != nil || got != c.want {
			t.Errorf("normalizeLink(%q) = %v, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "   ", "\u3000"} {
		s := in
		if got, err := normalizeLink(&s); got != nil || err != nil {
			t.Errorf("normalizeLink(%q) = %v, %v; want nil", in, got, err)
		}
	}
	if got, err := normalizeLink(nil); got != nil || err != nil {
		t.Errorf("normalizeLink(nil) = %v, %v", got, err)
	}
	bad := []string{
		"javascript:alert(1)", "JavaScript:alert(1)", "  data:text/html,x", "vbscript:x",
		"-javascript:x", "%javascript:x", "https://a\u200bb", "https://a\x01b", "&#106;avascript:x", "java&Tab;script:x",
	}
	for _, in := range bad {
		s := in
		if got, err := normalizeLink(&s); err == nil {
			t.Errorf("normalizeLink(%q) = %v, want an error", in, got)
		}
	}
}
