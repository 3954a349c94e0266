package sceneerr

import (
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// The package stays a leaf (no import of apierr); the test holds it to
// the web server's error contract.
var _ apierr.Coded = (*Error)(nil)

func TestStatusesAndMatching(t *testing.T) {
	if len(Codes()) != 17 {
		t.Fatalf("%d codes, the contract has 15 and boards add rate_limited and name_unavailable", len(Codes()))
	}
	if string(InvalidName) != apierr.CodeInvalidName || NameUnavailable.Status() != 409 {
		t.Fatal("invalid_name is the host's one code for a refused name; name_unavailable is 409")
	}
	if SceneBusy.Status() != 423 || InvalidName.Status() != 400 || Code("x").Status() != 500 {
		t.Fatal("wrong statuses")
	}
	err := fmt.Errorf("wrapped: %w", New(NotFound, "scene %q", "a").With("name", "a"))
	if CodeOf(err) != NotFound || !errors.Is(err, New(NotFound, "")) || errors.Is(err, New(IOError, "")) {
		t.Fatal("matching by code failed")
	}
	var e *Error
	errors.As(err, &e)
	if e.Details["name"] != "a" || e.Error() != `not_found: scene "a"` {
		t.Fatalf("%+v", e)
	}
	if CodeOf(errors.New("plain")) != "" {
		t.Fatal("plain error has a code")
	}
}

func TestCodedForTheWebServer(t *testing.T) {
	e := New(RevisionConflict, "scene %q moved on", "a").With("currentRevision", int64(4))
	e.Err = errors.New("/secret/path")
	c, ok := apierr.As(fmt.Errorf("save: %w", e))
	if !ok || c.ErrorCode() != "revision_conflict" || c.HTTPStatus() != 409 || c.ErrorMessage() != `scene "a" moved on` ||
		!maps.Equal(c.ErrorDetails(), map[string]any{"currentRevision": int64(4)}) {
		t.Fatalf("%v", c)
	}
	for _, code := range Codes() {
		if New(code, "x").HTTPStatus() != code.Status() {
			t.Errorf("%s: %d", code, New(code, "x").HTTPStatus())
		}
	}
}
