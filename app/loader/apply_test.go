package loader

import (
	"context"
	"errors"
	"testing"
)

func TestApplierFunc(t *testing.T) {
	boom := errors.New("boom")
	var got []Change
	var a Applier = ApplierFunc(func(_ context.Context, changes []Change) error {
		got = changes
		return boom
	})
	in := []Change{{Kind: Added, ID: "x"}}
	if err := a.ApplyChanges(context.Background(), in); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if len(got) != 1 || got[0].ID != "x" {
		t.Fatalf("got %v", got)
	}
}
