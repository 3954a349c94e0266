package service

import (
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

func TestWriteResultCopiesEvidence(t *testing.T) {
	at := time.Date(2026, 10, 28, 3, 20, 11, 5e6, time.FixedZone("x", 3600))
	w := writeResult(&store.Result{Meta: store.Meta{Name: "n", Revision: 7, PreviousRevision: 6, SHA256: "h", ByteLength: 9, ElementCount: 2},
		SavedAt: at, Verified: true, Duplicate: true})
	if w.Name != "n" || w.Revision != 7 || w.PreviousRevision != 6 || w.SHA256 != "h" || w.ByteLength != 9 || w.ElementCount != 2 ||
		!w.Verified || !w.Duplicate || w.SavedAt != "2026-10-28T02:20:11.005Z" {
		t.Fatalf("%+v", w)
	}
}
