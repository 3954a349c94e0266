package jsonpointer

import "testing"

func TestEscapeRoundTrip(t *testing.T) {
	for name, token := range map[string]string{
		"":        "",
		"plain":   "plain",
		"a/b":     "a~1b",
		"m~n":     "m~0n",
		"~/":      "~0~1",
		"~1":      "~01",
		"/~0/":    "~1~00~1",
		"x y%20z": "x y%20z",
	} {
		if got := Escape(name); got != token {
			t.Errorf("Escape(%q) = %q, want %q", name, got, token)
		}
		if got := Unescape(token); got != name {
			t.Errorf("Unescape(%q) = %q, want %q", token, got, name)
		}
	}
	if got := Unescape("~2~"); got != "~2~" {
		t.Errorf("an escape RFC 6901 does not define is left as it is: %q", got)
	}
}
