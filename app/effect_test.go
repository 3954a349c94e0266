package app

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestEffectListOrderAndRemoval(t *testing.T) {
	var l effectList
	a, b, c := &effect{label: "a"}, &effect{label: "b"}, &effect{label: "c"}
	l.push(a)
	l.push(b)
	l.push(c)
	if got := strings.Join(l.labels(), ","); got != "a,b,c" {
		t.Fatalf("labels = %s", got)
	}
	if !l.remove(b) || l.remove(b) {
		t.Fatal("remove must succeed once")
	}
	if got := l.pop(); got != c {
		t.Fatalf("pop = %v, want c", got.label)
	}
	if got := l.pop(); got != a {
		t.Fatalf("pop = %v, want a", got.label)
	}
	if l.pop() != nil || l.n != 0 || l.head != nil || l.tail != nil {
		t.Fatal("list not empty")
	}
}

func TestEffectRunRecoversPanic(t *testing.T) {
	e := &effect{label: "boom", dispose: func(context.Context) error { panic("x") }}
	if err := e.run(context.Background()); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v", err)
	}
	sentinel := errors.New("s")
	e = &effect{label: "e", dispose: func(context.Context) error { return sentinel }}
	if err := e.run(context.Background()); !errors.Is(err, sentinel) {
		t.Fatalf("err = %v", err)
	}
}
