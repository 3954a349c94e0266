package boards

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Lengths are counted in characters, not bytes: 120 three-byte characters
// are a valid title, 121 are not.
func TestCheckTitle(t *testing.T) {
	ok := strings.Repeat("日", MaxTitle)
	got, err := CheckTitle("  " + ok + "\t")
	if err != nil || got != ok {
		t.Fatalf("120 characters: %q, %v", got, err)
	}
	e := wantCode(t, second(CheckTitle(ok+"é")), sceneerr.InvalidOperation)
	if e.Message != "title must be one line of at most 120 characters (got 121)" {
		t.Fatalf("message %q", e.Message)
	}
	e = wantCode(t, second(CheckTitle(strings.Repeat("x", 131))), sceneerr.InvalidOperation)
	if e.Message != "title must be one line of at most 120 characters (got 131)" || e.Details["field"] != "title" {
		t.Fatalf("%q %v", e.Message, e.Details)
	}
	for _, bad := range []string{"two\nlines", "cr\rhere", "sep\u2028arator", "bell\a", "tab\tinside", "bad \xff utf-8"} {
		e := wantCode(t, second(CheckTitle(bad)), sceneerr.InvalidOperation)
		if !strings.HasPrefix(e.Message, "title must be one line of at most 120 characters (") {
			t.Errorf("%q: %q", bad, e.Message)
		}
	}
	if e := wantCode(t, second(CheckTitle("a\nb")), sceneerr.InvalidOperation); !strings.Contains(e.Message, "line break") {
		t.Errorf("newline: %q", e.Message)
	}
	if got, err := CheckTitle("   "); err != nil || got != "" {
		t.Fatalf("blank title: %q, %v", got, err)
	}
	if got, err := CheckTitle(" Plan \n"); err != nil || got != "Plan" {
		t.Fatalf("surrounding white space: %q, %v", got, err)
	}
}

func TestCheckDescription(t *testing.T) {
	ok := strings.Repeat("ü", MaxDescription)
	if got, err := CheckDescription(ok); err != nil || got != ok {
		t.Fatalf("300 characters: %v", err)
	}
	e := wantCode(t, second(CheckDescription(ok+"ü")), sceneerr.InvalidOperation)
	if e.Message != "description must be one paragraph (no line breaks) of at most 300 characters (got 301)" {
		t.Fatalf("message %q", e.Message)
	}
	e = wantCode(t, second(CheckDescription("first paragraph\n\nsecond")), sceneerr.InvalidOperation)
	if e.Message != "description must be one paragraph (no line breaks) of at most 300 characters (it has a line break)" {
		t.Fatalf("message %q", e.Message)
	}
	if got, err := CheckDescription(""); err != nil || got != "" {
		t.Fatalf("empty: %q %v", got, err)
	}
}

func TestCheckFolderName(t *testing.T) {
	ok := strings.Repeat("ß", MaxFolderName)
	if got, err := CheckFolderName(" " + ok + " "); err != nil || got != ok {
		t.Fatalf("80 characters: %q, %v", got, err)
	}
	e := wantCode(t, second(CheckFolderName(ok+"ß")), sceneerr.InvalidOperation)
	if e.Message != "folder name must be one line of 1 to 80 characters (got 81)" {
		t.Fatalf("message %q", e.Message)
	}
	e = wantCode(t, second(CheckFolderName("  ")), sceneerr.InvalidOperation)
	if e.Message != "folder name must be one line of 1 to 80 characters (got an empty one)" {
		t.Fatalf("message %q", e.Message)
	}
	// A control character is the host's invalid_name, as in every name.
	for _, bad := range []string{"a\nb", "a\x00", "\tWork", "Work\x1b[2J"} {
		e = wantCode(t, second(CheckFolderName(bad)), sceneerr.InvalidName)
		if !strings.Contains(e.Message, "control character") || e.Details["field"] != "folder name" {
			t.Fatalf("%q: %q %v", bad, e.Message, e.Details)
		}
	}
}

func TestCheckRole(t *testing.T) {
	for _, r := range []string{"editor", "viewer"} {
		if err := CheckRole(r); err != nil {
			t.Errorf("%s: %v", r, err)
		}
	}
	for _, r := range []string{"", "owner", "Editor", "admin"} {
		e := wantCode(t, CheckRole(r), sceneerr.InvalidOperation)
		if !strings.HasPrefix(e.Message, `a member's role must be "editor" or "viewer" (got "`+r+`"`) {
			t.Errorf("%q: %q", r, e.Message)
		}
	}
}

func second[T any](_ T, err error) error { return err }
