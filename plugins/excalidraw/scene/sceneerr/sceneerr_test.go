package sceneerr

import (
	"errors"
	"fmt"
	"testing"
)

func TestStatusesAndMatching(t *testing.T) {
	if len(Codes()) != 15 {
		t.Fatalf("%d codes, the contract has 15", len(Codes()))
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
