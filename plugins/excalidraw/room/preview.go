package room

import (
	"context"
	"encoding/json"
	"math/rand/v2"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

var _ service.Previewer = (*Server)(nil).Preview

// Preview shows an agent's write to its board's room before the store has
// it (service.Previewer): the members see the elements once the write is
// decided, not after the durable write of the whole board, whose cost
// grows with the board. When the write is then stored, its commit's delta
// finds the members have those elements and sends nothing more. When it
// fails, the elements are taken back (retract). A board without a room
// here, or a room without members, shows nothing.
func (s *Server) Preview(board string, elements []json.RawMessage) func(error) {
	s.mu.Lock()
	r := s.rooms[s.opts.Keys.RoomID(board)]
	s.mu.Unlock()
	if r == nil {
		return nil
	}
	shown := r.preview(elements)
	if len(shown) == 0 {
		return nil
	}
	return func(err error) {
		if err != nil {
			r.retract(shown, err)
		}
	}
}

// shownElement is an element a preview showed: as the members have it.
type shownElement struct {
	head elementHead
	raw  json.RawMessage
}

// preview sends the members the elements they lack of a write not yet
// stored, and returns them.
func (r *room) preview(els []json.RawMessage) []shownElement {
	shown := r.show(els)
	if len(shown) > 0 {
		send := make([]json.RawMessage, len(shown))
		for i, s := range shown {
			send[i] = s.raw
		}
		r.emitScene(send)
	}
	return shown
}

// show records the elements of a preview the members lack as theirs and
// returns them (none when nobody is here).
func (r *room) show(els []json.RawMessage) []shownElement {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || len(r.members) == 0 {
		return nil
	}
	var shown []shownElement
	for _, raw := range els {
		if h, ok := r.told(raw); ok {
			shown = append(shown, shownElement{h, raw})
		}
	}
	return shown
}

// retract takes back what a preview showed of a write that failed: each
// element the members still have as shown goes back to what the board
// stores (or, one the board does not have, is deleted), at a version
// above the one shown, so that every client's reconciliation (the higher
// version wins) takes it. Since the members then have versions the
// board does not, the room lifts that element's later commits above them
// (lift) until a commit passes them.
func (r *room) retract(shown []shownElement, cause error) {
	_, stored, err := r.read(context.Background()) // the process: every member gets the same
	if err != nil {
		r.s.log.Warn("room: reading the board to take back a failed write", zap.String("board", r.board), zap.Error(err))
		return
	}
	send := r.takeBack(shown, stored)
	r.s.log.Warn("room: took back an agent's write that was not stored", zap.String("board", r.board),
		zap.Int("elements", len(send)), zap.Error(cause))
	if len(send) > 0 {
		r.emitScene(send)
	}
}

// takeBack is retract's work on the board's stored elements: what to send
// the members, recorded as theirs.
func (r *room) takeBack(shown []shownElement, stored []json.RawMessage) []json.RawMessage {
	byID := make(map[string]json.RawMessage, len(stored))
	for _, raw := range stored {
		if h, ok := headOf(raw); ok {
			byID[h.ID] = raw
		}
	}
	var send []json.RawMessage
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range shown {
		if cur := r.seen[s.head.ID]; cur.Version != s.head.Version || cur.VersionNonce != s.head.VersionNonce {
			continue // someone's newer version is what the members have now
		}
		back, deleted := byID[s.head.ID], false
		if back == nil {
			back, deleted = s.raw, true
		}
		raw, h, ok := withVersion(back, s.head.Version+1, deleted)
		if !ok {
			continue
		}
		r.seen[h.ID] = h
		r.lifted[h.ID] = h.Version
		send = append(send, raw)
	}
	return send
}

// lift is an element of a commit as the members must get it: at a
// version above what a retraction gave them, while the board's is not.
// r.mu is held.
func (r *room) lift(raw json.RawMessage) json.RawMessage {
	if len(r.lifted) == 0 {
		return raw
	}
	h, ok := headOf(raw)
	if !ok {
		return raw
	}
	floor, ok := r.lifted[h.ID]
	if !ok {
		return raw
	}
	if h.Version > floor {
		delete(r.lifted, h.ID) // the board passed what the members have
		return raw
	}
	out, lh, ok := withVersion(raw, floor+1, h.IsDeleted)
	if !ok {
		return raw
	}
	r.lifted[h.ID] = lh.Version
	return out
}

// withVersion is an element at version v with a fresh versionNonce,
// deleted if deleted.
func withVersion(raw json.RawMessage, v float64, deleted bool) (json.RawMessage, elementHead, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, elementHead{}, false
	}
	m["version"] = mustJSON(v)
	m["versionNonce"] = mustJSON(rand.Int32())
	if deleted {
		m["isDeleted"] = mustJSON(true)
	}
	out := json.RawMessage(mustJSON(m))
	h, ok := headOf(out)
	return out, h, ok
}

// emitScene sends the members elements of the board (SCENE_UPDATE).
func (r *room) emitScene(els []json.RawMessage) {
	data, iv := r.seal(message{Type: msgSceneUpdate, Payload: mustJSON(scenePayload{Elements: els})})
	_ = r.s.io.To(roomName(r.id)).Emit(evClientBroadcast, data, iv)
}
