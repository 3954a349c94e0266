package names

import (
	"errors"
	"net/http"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

func TestCheck(t *testing.T) {
	for _, ok := range []string{"agent", "Claude on my laptop", "Ünïcødé – ok", "家族 👨‍👩‍👧", "a'b\"c", ""} {
		if err := Check("name", ok); err != nil {
			t.Errorf("Check(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"\x00", "a\x00b", "bot\x1b[31m", "line\n", "\ttab", "del\x7f", "c1\u0085", "\u009b2J",
		"sep\u2028", "par\u2029", "evil\u202egnp.exe", "iso\u2066x\u2069", "\xff\xfe"} {
		err := Check("token name", bad)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Check(%q) = %v, want a refusal", bad, err)
			continue
		}
		c, ok := apierr.As(err)
		if !ok || c.ErrorCode() != "invalid_name" || c.HTTPStatus() != http.StatusBadRequest || c.ErrorDetails()["field"] != "token name" {
			t.Errorf("Check(%q): %v %v", bad, c, ok)
		}
		if msg := c.ErrorMessage(); Display(msg) != msg {
			t.Errorf("Check(%q)'s message is not printable: %q", bad, msg)
		}
	}
}

func TestDisplay(t *testing.T) {
	for in, want := range map[string]string{
		"agent":           "agent",
		"with space":      "with space",
		"Ünïcødé":         "Ünïcødé",
		"bot\x1b[31mred":  `"bot\x1b[31mred"`,
		"a\x00b":          `"a\x00b"`,
		"tab\there":       `"tab\there"`,
		"rtl\u202eabc":    `"rtl\u202eabc"`,
		"\xff":            `"\xff"`,
		`"quoted"`:        `"\"quoted\""`,
		"zero\u200bwidth": `"zero\u200bwidth"`,
	} {
		if got := Display(in); got != want {
			t.Errorf("Display(%q) = %s, want %s", in, got, want)
		}
	}
}
