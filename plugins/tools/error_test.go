package tools

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

func TestErrorString(t *testing.T) {
	e := Errorf("not_found", "no file %q", "a.txt")
	if got, want := e.Error(), `not_found: no file "a.txt"`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if got := (&Error{Code: "bare"}).Error(); got != "bare" {
		t.Fatalf("Error() without message = %q", got)
	}
	if got := (&Error{Message: "only"}).Error(); got != "only" {
		t.Fatalf("Error() without code = %q", got)
	}
}

func TestErrorWithDetailsCopies(t *testing.T) {
	base := Errorf("quota", "too many")
	d := base.WithDetails(map[string]int{"limit": 3})
	if base.Details != nil {
		t.Fatal("WithDetails mutated the receiver")
	}
	if d.Code != "quota" || d.Message != "too many" || d.Details == nil {
		t.Fatalf("unexpected copy %+v", d)
	}
}

func TestErrorUnwrapsThroughWrapping(t *testing.T) {
	wrapped := fmt.Errorf("context: %w", Errorf("x", "y"))
	var te *Error
	if !errors.As(wrapped, &te) || te.Code != "x" {
		t.Fatalf("errors.As failed: %v", wrapped)
	}
}

func TestFromErrorTakesAnyCodedError(t *testing.T) {
	details := map[string]any{"currentRevision": int64(3), "currentSha256": "ab"}
	coded := &apierr.Error{Status: 409, Code: "revision_conflict", Message: "scene moved on", Details: details,
		Err: errors.New("/drawings/a.excalidraw")}
	te, ok := FromError(fmt.Errorf("save: %w", coded))
	if !ok || te.Code != "revision_conflict" || te.Message != "scene moved on" || !reflect.DeepEqual(te.Details, details) {
		t.Fatalf("%v %+v", ok, te)
	}
	// Empty details are no details member, not an empty one.
	coded.Details = map[string]any{}
	if te, _ := FromError(coded); te.Details != nil {
		t.Fatalf("empty details kept: %#v", te.Details)
	}
	// The registry's own error wins and is returned as is.
	own := Errorf("unknown_tool", "x")
	if te, ok := FromError(fmt.Errorf("%w %w", own, coded)); !ok || te != own {
		t.Fatalf("%+v", te)
	}
	if te, ok := FromError(errors.New("plain")); ok || te != nil {
		t.Fatalf("plain error: %+v", te)
	}
}
