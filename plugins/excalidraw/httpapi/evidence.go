package httpapi

import (
	"slices"
	"sync"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
)

// DefaultEventLimit bounds the events an Evidence keeps for one board:
// enough to see a whole mount–edit–save–unmount cycle or two, small
// enough that a page posting in a loop cannot grow the host's memory.
const DefaultEventLimit = 50

// DefaultBoardLimit bounds the boards an Evidence keeps events for; past
// it, the board reported on longest ago is forgotten first.
const DefaultBoardLimit = 256

// Event is one recorded lifecycle report, stamped by the host (the
// browser's clock is not trusted) and numbered, per board, so a reader
// can tell new events from ones it has already seen even when old ones
// were dropped. Name is the board the editor showed.
type Event struct {
	Seq          int64  `json:"seq"`
	At           string `json:"at"`
	Event        string `json:"event"`
	Build        string `json:"build,omitempty"`
	Width        *int   `json:"width,omitempty"`
	Height       *int   `json:"height,omitempty"`
	Theme        string `json:"theme,omitempty"`
	ElementCount *int   `json:"elementCount,omitempty"`
	Name         string `json:"name,omitempty"`
	Revision     int64  `json:"revision,omitempty"`
	SHA256       string `json:"sha256,omitempty"`
	Message      string `json:"message,omitempty"`
}

// EditorState is what one board's editors reported (an entry of
// /health's `editors`): the state the events add up to, and the recent
// events themselves, so an end-to-end test can assert what the browser
// actually did rather than trust the page's own success text.
type EditorState struct {
	Mounted      bool    `json:"mounted"`
	Events       []Event `json:"events"`
	ElementCount int     `json:"elementCount"`
	Width        int     `json:"width"`
	Height       int     `json:"height"`
	Build        string  `json:"build"`
	Theme        string  `json:"theme"`
	// LastSaved is the last save the editor reported as verified: the
	// revision record it saw (the host's time, no writer).
	LastSaved *live.Change `json:"lastSaved,omitempty"`
	Error     string       `json:"error"`
}

// boardEvidence is one board's state, its event numbering, and when it
// was last reported on (in Evidence's own count, for forgetting).
type boardEvidence struct {
	seq   int64
	last  uint64
	state EditorState
}

// Evidence accumulates editor lifecycle evidence, board by board: who
// may read a board sees its evidence, and nobody else's. It is safe for
// concurrent use: several tabs may report at once. Who may report is the
// route's to decide (see editorStatus).
type Evidence struct {
	mu        sync.Mutex
	now       func() time.Time
	limit     int
	maxBoards int
	clock     uint64
	boards    map[string]*boardEvidence
}

// NewEvidence returns an empty Evidence keeping DefaultEventLimit events
// for each of at most DefaultBoardLimit boards.
func NewEvidence() *Evidence {
	return &Evidence{now: time.Now, limit: DefaultEventLimit, maxBoards: DefaultBoardLimit, boards: map[string]*boardEvidence{}}
}

// Record validates s and folds it into the state of its board (s.Name).
// A new mount clears the previous error, because the error described an
// activation that has since been replaced.
func (e *Evidence) Record(s Status) (Event, error) {
	if err := s.Validate(); err != nil {
		return Event{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.board(s.Name)
	b.seq++
	at := e.now().UTC().Format(time.RFC3339Nano)
	ev := Event{
		Seq: b.seq, At: at, Event: s.Event, Build: s.Build, Width: cloneInt(s.Width), Height: cloneInt(s.Height),
		Theme: s.Theme, ElementCount: cloneInt(s.ElementCount), Name: s.Name, SHA256: s.SHA256,
		Message: truncate(s.Message, maxMessageLen),
	}
	if s.Revision != nil {
		ev.Revision = *s.Revision
	}
	b.apply(ev)
	b.state.Events = append(b.state.Events, ev)
	if over := len(b.state.Events) - e.limit; over > 0 {
		// Copy rather than reslice so dropped events are released.
		b.state.Events = append([]Event(nil), b.state.Events[over:]...)
	}
	return ev, nil
}

// board is name's evidence, made (and the oldest board forgotten, past
// the bound) if there is none yet, and marked as the latest reported on.
func (e *Evidence) board(name string) *boardEvidence {
	e.clock++
	if b, ok := e.boards[name]; ok {
		b.last = e.clock
		return b
	}
	if len(e.boards) >= e.maxBoards {
		oldest, at := "", uint64(0)
		for n, b := range e.boards {
			if oldest == "" || b.last < at {
				oldest, at = n, b.last
			}
		}
		delete(e.boards, oldest)
	}
	b := &boardEvidence{last: e.clock}
	e.boards[name] = b
	return b
}

// apply updates the summary fields for one validated event.
func (b *boardEvidence) apply(ev Event) {
	st := &b.state
	switch ev.Event {
	case EventMounted:
		st.Mounted, st.Build, st.Theme, st.Error = true, ev.Build, ev.Theme, ""
		st.Width, st.Height = *ev.Width, *ev.Height
	case EventCanvasReady:
		st.ElementCount = *ev.ElementCount
	case EventSaved:
		st.ElementCount = *ev.ElementCount
		st.LastSaved = &live.Change{Name: ev.Name, Revision: ev.Revision, SHA256: ev.SHA256, ElementCount: *ev.ElementCount, At: ev.At}
	case EventUnmounted:
		st.Mounted = false
	case EventError:
		st.Error = ev.Message
	}
}

// Boards lists the boards with evidence, sorted.
func (e *Evidence) Boards() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, 0, len(e.boards))
	for n := range e.boards {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Snapshot returns a copy of the board name's state that later events
// do not change (the empty state, with no events, for a board without
// evidence).
func (e *Evidence) Snapshot(name string) EditorState {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := EditorState{Events: []Event{}}
	b, ok := e.boards[name]
	if !ok {
		return out
	}
	out = b.state
	out.Events = append(make([]Event, 0, len(b.state.Events)), b.state.Events...)
	if out.LastSaved != nil {
		ls := *out.LastSaved
		out.LastSaved = &ls
	}
	return out
}

// cloneInt copies an optional int, so a recorded event never aliases the
// caller's request value.
func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
