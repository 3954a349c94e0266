package engine

import (
	"errors"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestPrefixBuildError(t *testing.T) {
	in := sceneerr.New(sceneerr.DuplicateID, "dup").With("index", 1).With("pointer", "/id")
	out := wantCode(t, prefixBuildError(in, func(i int) string { return []string{"/operations/0/element", "/operations/3/element"}[i] }), sceneerr.DuplicateID)
	if out.Details["pointer"] != "/operations/3/element/id" || in.Details["pointer"] != "/id" {
		t.Fatalf("%v / %v", out.Details, in.Details)
	}
	plain := wantCode(t, prefixBuildError(sceneerr.New(sceneerr.InvalidOperation, "x"), nil), sceneerr.InvalidOperation)
	if plain.Details != nil {
		t.Fatal(plain.Details)
	}
	if other := errors.New("disk"); prefixBuildError(other, nil) != other {
		t.Fatal("an error of another kind was wrapped")
	}
}
