package tools

import "testing"

func TestAddInstructionsInOrder(t *testing.T) {
	r := NewRegistry(nil)
	if got := r.Instructions(); got != "" {
		t.Fatalf("empty registry: %q", got)
	}
	first := r.AddInstructions(" one ")
	r.AddInstructions("two")
	r.AddInstructions("   ")
	if got := r.Instructions(); got != "one\n\ntwo" {
		t.Fatalf("instructions = %q", got)
	}
	first()
	first() // twice is harmless
	if got := r.Instructions(); got != "two" {
		t.Fatalf("after removing the first: %q", got)
	}
}
