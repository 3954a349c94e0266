package app

import (
	"context"
	"testing"
)

func TestChain(t *testing.T) {
	a, b, c := &Scope{}, &Scope{}, &Scope{}
	ctx := withChain(withChain(context.Background(), a), b)
	if !inChain(ctx, a) || !inChain(ctx, b) || inChain(ctx, c) {
		t.Fatal("chain membership wrong")
	}
	if inChain(context.Background(), a) {
		t.Fatal("empty context has no chain")
	}
}
