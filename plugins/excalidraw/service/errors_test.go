package service

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

func TestMapError(t *testing.T) {
	if mapError(nil) != nil {
		t.Fatal("nil must stay nil")
	}
	st := &store.Error{Code: store.CodeRevisionConflict, Message: "m", Details: map[string]any{"currentRevision": int64(3)}}
	se := wantCode(t, mapError(st), sceneerr.RevisionConflict)
	if se.Details["currentRevision"] != int64(3) {
		t.Fatal(se.Details)
	}
	se.Details["x"] = 1
	if _, leaked := st.Details["x"]; leaked {
		t.Fatal("details shared with the store error")
	}
	wantCode(t, mapError(&store.Error{Code: store.CodeInvalidRequest}), sceneerr.InvalidOperation)
	wantCode(t, mapError(errors.New("disk on fire")), sceneerr.IOError)
	orig := sceneerr.New(sceneerr.NotFound, "x")
	if mapError(orig) != orig {
		t.Fatal("a sceneerr must pass through")
	}
}

// TestMapErrorOutermostWins: the outer verdict describes what happened, so
// a corrupt file stays corrupt_scene although its cause is the codec's
// invalid_scene, and a service error keeps its code over a store cause.
func TestMapErrorOutermostWins(t *testing.T) {
	parse := sceneerr.New(sceneerr.InvalidScene, "invalid JSON")
	corrupt := &store.Error{Code: store.CodeCorruptScene, Message: "corrupt", Err: parse}
	wantCode(t, mapError(corrupt), sceneerr.CorruptScene)
	wantCode(t, mapError(fmt.Errorf("read: %w", corrupt)), sceneerr.CorruptScene)
	wantCode(t, mapError(errors.Join(errors.New("plain"), corrupt, parse)), sceneerr.CorruptScene)
	outer := &sceneerr.Error{Code: sceneerr.InvalidOperation, Message: "m", Err: &store.Error{Code: store.CodeNotFound}}
	wantCode(t, mapError(outer), sceneerr.InvalidOperation)
}

func TestOpErrorPointer(t *testing.T) {
	if e := opError("/a/b", "bad %d", 1); e.Code != sceneerr.InvalidOperation || e.Details["pointer"] != "/a/b" || e.Message != "bad 1" {
		t.Fatal(e)
	}
}
