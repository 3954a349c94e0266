package service

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// A preview is an agent's write as it was decided, shown before the store
// has it. A write's durable part (the whole file written, fsynced and
// read back) grows with the board; what people in a live room wait for
// need not: the elements the write changed are known once its plan ran,
// under the scene's lock, past the revision fence. The preview promises
// nothing: the agent is answered only once the write is stored, and a
// write that then fails is taken back from whatever showed it.

// Previewer is told of a preview: the board and the elements the write
// changed, whole, as they will be stored, in the scene's order. It is
// called under the scene's lock, so it must be quick and must not call the
// service for the same board. It returns what to call once the write
// ended (nil error: stored; else why not), or nil to hear nothing more.
type Previewer func(board string, elements []json.RawMessage) (settled func(error))

// previewOf is what a write shows before it is stored: the elements of
// its document encoded anew (changed or added; sp.From), or nothing when
// the document was not forked from the stored one (every element encoded
// anew), or more changed than a delta carries (MaxDeltaElements): the
// commit's own delta brings those. An element the write dropped from the
// file altogether is not in it either; the commit's delta tells that.
func previewOf(sp *scene.Split) []json.RawMessage {
	if sp == nil || sp.Base == nil || len(sp.From) != len(sp.Elements) {
		return nil
	}
	var out []json.RawMessage
	for i, e := range sp.Elements {
		if sp.From[i] >= 0 {
			continue
		}
		if len(out) == MaxDeltaElements {
			return nil
		}
		out = append(out, e.Raw)
	}
	return out
}
