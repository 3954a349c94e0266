package tools

import (
	"errors"
	"fmt"
	"testing"
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
