package store

import (
	"bytes"
	"testing"
)

func TestReadReturnsSceneAndMeta(t *testing.T) {
	s := testStore(t)
	created := mustCreate(t, s, "a", 2, "x")
	sc, err := s.Read(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sc.Data, doc(2, "x")) || sc.Meta != created.Meta {
		t.Fatalf("read %+v, created %+v", sc.Meta, created.Meta)
	}
}

func TestReadMissingIsNotFound(t *testing.T) {
	s := testStore(t)
	_, err := s.Read(bg, "nope")
	wantCode(t, err, CodeNotFound)
	_, err = s.Read(bg, "../etc/passwd")
	wantCode(t, err, CodeInvalidName)
}

func TestReadTooLargeFile(t *testing.T) {
	s := testStore(t, func(o *Options) { o.MaxSceneBytes = 64 })
	writeFile(t, scenePathOf(s, "big"), doc(20, "x"))
	e := wantCode(t, err2(s.Read(bg, "big")), CodeTooLarge)
	if e.Details["limit"] != "maxSceneBytes" || e.Details["max"] != int64(64) || e.Details["actual"] != int64(len(doc(20, "x"))) {
		t.Fatalf("details %v", e.Details)
	}
}

func err2[T any](_ T, err error) error { return err }
