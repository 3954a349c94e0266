package service

import (
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// timeLayout is RFC 3339 with milliseconds in UTC, the form of the
// sidecar's updatedAt, so both sides of the API print the same instant the
// same way.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// formatTime prints t in timeLayout, or "" for the zero time (a scene with
// no recorded revision).
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

// WriteResult is the save evidence of contract section 3.3, plus what the
// write did. Duplicate and Unchanged are always present: duplicate:true is
// a repeated request id (the first call's evidence; nothing ran again),
// unchanged:true a write whose result was byte for byte the stored scene,
// so nothing was written and the evidence is the current revision's
// (savedAt is when that revision was saved).
type WriteResult struct {
	Name             string      `json:"name"`
	Revision         int64       `json:"revision"`
	PreviousRevision int64       `json:"previousRevision,omitempty"`
	SHA256           string      `json:"sha256"`
	ByteLength       int64       `json:"byteLength"`
	ElementCount     int         `json:"elementCount"`
	SavedAt          string      `json:"savedAt"`
	Verified         bool        `json:"verified"`
	Duplicate        bool        `json:"duplicate"`
	Unchanged        bool        `json:"unchanged"`
	Operations       *OpsSummary `json:"operations,omitempty"`
	Summary          *Summary    `json:"summary,omitempty"`
	// Repairs lists what a full-scene save repaired in the scene it was
	// given (ids renamed, bindings dropped: see scene.Repair), the first
	// maxRepairsShown of them; RepairsOmitted counts the rest. Both are
	// absent when nothing was repaired, and on a duplicate (nothing ran).
	Repairs        []scene.Repair `json:"repairs,omitempty"`
	RepairsOmitted int            `json:"repairsOmitted,omitempty"`
	// RelaidOut are the elements of a full-scene save that the engine's
	// keepers laid out again (a stack's items after one grew): what was
	// stored differs from what was sent there, and the editor reads it
	// back. Absent when they moved nothing.
	RelaidOut []string `json:"relaidOut,omitempty"`
	// Lint is a create's lint, as a write's envelope has it: the new
	// scene's findings (new), capped. Absent for other writes and for a
	// scene without elements.
	Lint *LintDelta `json:"lint,omitempty"`
}

// maxRepairsShown bounds WriteResult.Repairs: enough to see what happened
// to a damaged scene and which ids it has now, not a dump of every repair
// of a scene that needed thousands.
const maxRepairsShown = 50

// setRepairs puts the repairs of rep into the result, bounded.
func (w *WriteResult) setRepairs(rep scene.NormalizeReport) {
	shown := rep.Repairs
	if len(shown) > maxRepairsShown {
		shown = shown[:maxRepairsShown]
	}
	w.Repairs = shown
	w.RepairsOmitted = len(rep.Repairs) - len(shown) + rep.RepairsOmitted
}

// OpsSummary counts what an Apply did (the engine transaction's Result);
// IDs are the elements the operations named (added ones included), in
// operation order.
type OpsSummary = engine.Result

// writeResult copies the store's evidence.
func writeResult(r *store.Result) *WriteResult {
	return &WriteResult{
		Name:             r.Name,
		Revision:         r.Revision,
		PreviousRevision: r.PreviousRevision,
		SHA256:           r.SHA256,
		ByteLength:       r.ByteLength,
		ElementCount:     r.ElementCount,
		SavedAt:          formatTime(r.SavedAt),
		Verified:         r.Verified,
		Duplicate:        r.Duplicate,
		Unchanged:        r.Unchanged,
	}
}
