package httpapi

import (
	"sync"
	"time"
)

// DefaultEventLimit bounds the events an Evidence keeps: enough to see a
// whole mount–edit–save–unmount cycle or two, small enough that a page
// posting in a loop cannot grow the host's memory.
const DefaultEventLimit = 50

// Event is one recorded lifecycle report, stamped by the host (the
// browser's clock is not trusted) and numbered so a reader can tell new
// events from ones it has already seen even when old ones were dropped.
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

// SavedScene is the last save the editor reported as verified.
type SavedScene struct {
	Name         string `json:"name"`
	Revision     int64  `json:"revision"`
	SHA256       string `json:"sha256"`
	ElementCount int    `json:"elementCount"`
	At           string `json:"at"`
}

// EditorState is /health's `editor`: the state the events add up to, and
// the recent events themselves, so an end-to-end test can assert what the
// browser actually did rather than trust the page's own success text.
type EditorState struct {
	Mounted      bool        `json:"mounted"`
	Events       []Event     `json:"events"`
	ElementCount int         `json:"elementCount"`
	Width        int         `json:"width"`
	Height       int         `json:"height"`
	Build        string      `json:"build"`
	Theme        string      `json:"theme"`
	LastSaved    *SavedScene `json:"lastSaved,omitempty"`
	Error        string      `json:"error"`
}

// Evidence accumulates editor lifecycle evidence. It is safe for
// concurrent use: several tabs may report at once.
type Evidence struct {
	mu    sync.Mutex
	now   func() time.Time
	limit int
	seq   int64
	state EditorState
}

// NewEvidence returns an empty Evidence keeping DefaultEventLimit events.
func NewEvidence() *Evidence {
	return &Evidence{now: time.Now, limit: DefaultEventLimit}
}

// Record validates s and folds it into the state. A new mount clears the
// previous error, because the error described an activation that has
// since been replaced.
func (e *Evidence) Record(s Status) (Event, error) {
	if err := s.Validate(); err != nil {
		return Event{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seq++
	at := e.now().UTC().Format(time.RFC3339Nano)
	ev := Event{
		Seq: e.seq, At: at, Event: s.Event, Build: s.Build, Width: cloneInt(s.Width), Height: cloneInt(s.Height),
		Theme: s.Theme, ElementCount: cloneInt(s.ElementCount), Name: s.Name, SHA256: s.SHA256,
		Message: truncate(s.Message, maxMessageLen),
	}
	if s.Revision != nil {
		ev.Revision = *s.Revision
	}
	e.apply(ev)
	e.state.Events = append(e.state.Events, ev)
	if over := len(e.state.Events) - e.limit; over > 0 {
		// Copy rather than reslice so dropped events are released.
		e.state.Events = append([]Event(nil), e.state.Events[over:]...)
	}
	return ev, nil
}

// apply updates the summary fields for one validated event.
func (e *Evidence) apply(ev Event) {
	st := &e.state
	switch ev.Event {
	case EventMounted:
		st.Mounted, st.Build, st.Theme, st.Error = true, ev.Build, ev.Theme, ""
		st.Width, st.Height = *ev.Width, *ev.Height
	case EventCanvasReady:
		st.ElementCount = *ev.ElementCount
	case EventSaved:
		st.ElementCount = *ev.ElementCount
		st.LastSaved = &SavedScene{Name: ev.Name, Revision: ev.Revision, SHA256: ev.SHA256, ElementCount: *ev.ElementCount, At: ev.At}
	case EventUnmounted:
		st.Mounted = false
	case EventError:
		st.Error = ev.Message
	}
}

// Snapshot returns a copy of the state that later events do not change.
func (e *Evidence) Snapshot() EditorState {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.state
	out.Events = append(make([]Event, 0, len(e.state.Events)), e.state.Events...)
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
