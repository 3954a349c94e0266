package store

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

func TestUpdateMutatesCurrentScene(t *testing.T) {
	s := testStore(t)
	created := mustCreate(t, s, "a", 2, "one")
	res, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
		Mutate: func(cur *Scene) ([]byte, error) {
			if cur.Meta != created.Meta || !bytes.Equal(cur.Data, doc(2, "one")) {
				t.Errorf("mutate saw %+v", cur.Meta)
			}
			return doc(3, "two"), nil
		}})
	if err != nil || res.Revision != 2 || res.ElementCount != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	if got := readFile(t, backupPathOf(s, "a", 1)); !bytes.Equal(got, doc(2, "one")) {
		t.Fatalf("backup %s", got)
	}
}

func TestUpdateFenceAndErrors(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	called := false
	mutate := func(*Scene) ([]byte, error) { called = true; return doc(1, "x"), nil }

	_, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 7, Actor: ActorAgent, Mutate: mutate})
	wantCode(t, err, CodeRevisionConflict)
	if called {
		t.Fatal("mutate called despite conflict")
	}
	_, err = s.Update(bg, UpdateRequest{Name: "nope", ExpectedRevision: 1, Actor: ActorAgent, Mutate: mutate})
	wantCode(t, err, CodeNotFound)
	_, err = s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent})
	wantCode(t, err, CodeInvalidRequest)

	mine := errors.New("element e9 does not exist")
	_, err = s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
		Mutate: func(*Scene) ([]byte, error) { return nil, mine }})
	if err != mine {
		t.Fatalf("mutate error not passed through: %v", err)
	}
	_, err = s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
		Mutate: func(*Scene) ([]byte, error) { return []byte("not a scene"), nil }})
	wantCode(t, err, CodeInvalidScene)
	if sc := readSidecarFile(t, s, "a"); sc.Revision != 1 {
		t.Fatalf("failed updates wrote: %+v", sc)
	}
}

// A codec error that is already an *Error keeps its code.
func TestCodecErrorCodesPassThrough(t *testing.T) {
	s := testStore(t, func(o *Options) {
		o.Codec = codecFunc(func([]byte) (int, error) {
			return 0, &Error{Code: "invalid_scene", Status: 422, Message: "element 3: missing id"}
		})
	})
	_, err := s.Create(bg, CreateRequest{Name: "a", Data: []byte("{}"), Actor: ActorAgent})
	if e := wantCode(t, err, CodeInvalidScene); e.Message != "element 3: missing id" {
		t.Fatal(e)
	}
}

// A codec's own coded error (one from a package the store cannot see)
// keeps its code too, instead of becoming a generic invalid_scene.
func TestForeignCodedErrorsPassThrough(t *testing.T) {
	s := testStore(t, func(o *Options) {
		o.Codec = codecFunc(func([]byte) (int, error) { return 0, fmt.Errorf("wrapped: %w", dupErr{}) })
	})
	_, err := s.Create(bg, CreateRequest{Name: "a", Data: []byte("{}"), Actor: ActorAgent})
	var d dupErr
	if !errors.As(err, &d) || CodeOf(err) != "duplicate_id" {
		t.Fatalf("got %v (code %q)", err, CodeOf(err))
	}
}

type dupErr struct{}

func (dupErr) Error() string     { return "two elements share id a" }
func (dupErr) ErrorCode() string { return "duplicate_id" }

type codecFunc func([]byte) (int, error)

func (f codecFunc) Inspect(b []byte) (int, error) { return f(b) }
