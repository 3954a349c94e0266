package build

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRandomIDShapeAndUniqueness(t *testing.T) {
	s := randomSource{rand.New(rand.NewPCG(1, 2))}
	taken := idsOf{}
	for range 2000 {
		id := s.id(taken)
		if len(id) != idLength {
			t.Fatalf("id %q has length %d", id, len(id))
		}
		for _, c := range id {
			if !strings.ContainsRune(idAlphabet, c) {
				t.Fatalf("id %q has %q outside the alphabet", id, c)
			}
		}
	}
	if len(taken) != 2000 {
		t.Fatalf("taken has %d ids, want 2000", len(taken))
	}
}

func TestRandomIDSkipsTaken(t *testing.T) {
	first := randomSource{rand.New(rand.NewPCG(7, 7))}.id(idsOf{})
	taken := idsOf{first: true}
	got := randomSource{rand.New(rand.NewPCG(7, 7))}.id(taken)
	if got == first {
		t.Fatalf("id %q was already taken", got)
	}
}

func TestRandomIntegerRange(t *testing.T) {
	s := randomSource{rand.New(rand.NewPCG(3, 4))}
	for range 10000 {
		if n := s.integer(); n < 0 || n >= seedLimit {
			t.Fatalf("integer %d outside [0, 2^31)", n)
		}
	}
}

func TestRandomDeterministic(t *testing.T) {
	a := randomSource{rand.New(rand.NewPCG(9, 9))}
	b := randomSource{rand.New(rand.NewPCG(9, 9))}
	if a.id(idsOf{}) != b.id(idsOf{}) || a.integer() != b.integer() {
		t.Fatal("same seed gave different draws")
	}
}
