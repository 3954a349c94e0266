package httpapi

import (
	"encoding/hex"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// The editor lifecycle events of contract section 8.
const (
	EventMounted     = "mounted"
	EventCanvasReady = "canvas-ready"
	EventSaved       = "saved"
	EventUnmounted   = "unmounted"
	EventError       = "error"
)

// Bounds on the free-text fields a browser reports. They exist because
// /health echoes them back and the event list is kept in memory: a
// misbehaving page must not be able to grow either without limit.
const (
	maxBuildLen   = 128
	maxThemeLen   = 32
	maxMessageLen = 2000
	maxCanvasSide = 1 << 20
)

// Status is the body of POST /editor-status: one lifecycle event, the
// board the editor shows (name, on every event: evidence is kept per
// board), and the fields that event carries. Pointers distinguish
// "absent" from zero, so a required count of 0 is accepted and a missing
// one is not.
type Status struct {
	Event        string `json:"event"`
	Build        string `json:"build,omitempty"`
	Width        *int   `json:"width,omitempty"`
	Height       *int   `json:"height,omitempty"`
	Theme        string `json:"theme,omitempty"`
	ElementCount *int   `json:"elementCount,omitempty"`
	Name         string `json:"name,omitempty"`
	Revision     *int64 `json:"revision,omitempty"`
	SHA256       string `json:"sha256,omitempty"`
	Message      string `json:"message,omitempty"`
}

// allowed lists the fields each event may carry; a field outside its
// event's list is refused, so evidence is never half-attributed (a
// "mounted" with an elementCount would be ambiguous in /health).
var allowed = map[string]map[string]bool{
	EventMounted:     {"name": true, "build": true, "width": true, "height": true, "theme": true},
	EventCanvasReady: {"name": true, "elementCount": true},
	EventSaved:       {"name": true, "revision": true, "sha256": true, "elementCount": true},
	EventUnmounted:   {"name": true},
	EventError:       {"name": true, "message": true},
}

// present names the fields s carries.
func (s Status) present() []string {
	var out []string
	add := func(name string, ok bool) {
		if ok {
			out = append(out, name)
		}
	}
	add("build", s.Build != "")
	add("width", s.Width != nil)
	add("height", s.Height != nil)
	add("theme", s.Theme != "")
	add("elementCount", s.ElementCount != nil)
	add("name", s.Name != "")
	add("revision", s.Revision != nil)
	add("sha256", s.SHA256 != "")
	add("message", s.Message != "")
	return out
}

// Validate checks s against its event's rules; failures are
// invalid_operation with the pointer of the offending field.
func (s Status) Validate() error {
	fields, known := allowed[s.Event]
	if !known {
		return badRequest("/event", "event must be one of mounted, canvas-ready, saved, unmounted, error, not %q", s.Event)
	}
	for _, f := range s.present() {
		if !fields[f] {
			return badRequest("/"+f, "%s is not a field of a %q event", f, s.Event)
		}
	}
	if err := store.ValidName(s.Name); err != nil {
		return badRequest("/name", "name (the board the editor shows) is required, a valid scene name")
	}
	switch s.Event {
	case EventMounted:
		return s.validateMounted()
	case EventCanvasReady:
		return requireCount(s.ElementCount)
	case EventSaved:
		return s.validateSaved()
	case EventError:
		if s.Message == "" {
			return badRequest("/message", "message is required")
		}
		if !utf8.ValidString(s.Message) {
			return badRequest("/message", "message must be UTF-8")
		}
	}
	return nil
}

func (s Status) validateMounted() error {
	if s.Build == "" || len(s.Build) > maxBuildLen || !utf8.ValidString(s.Build) {
		return badRequest("/build", "build is required, at most %d bytes", maxBuildLen)
	}
	if err := side("/width", s.Width); err != nil {
		return err
	}
	if err := side("/height", s.Height); err != nil {
		return err
	}
	if len(s.Theme) > maxThemeLen || !utf8.ValidString(s.Theme) {
		return badRequest("/theme", "theme is at most %d bytes", maxThemeLen)
	}
	return nil
}

func side(ptr string, v *int) error {
	if v == nil || *v < 0 || *v > maxCanvasSide {
		return badRequest(ptr, "%s is required, between 0 and %d", ptr[1:], maxCanvasSide)
	}
	return nil
}

func requireCount(n *int) error {
	if n == nil || *n < 0 {
		return badRequest("/elementCount", "elementCount is required and must not be negative")
	}
	return nil
}

func (s Status) validateSaved() error {
	if s.Revision == nil || *s.Revision < 1 {
		return badRequest("/revision", "revision is required and must be at least 1")
	}
	if b, err := hex.DecodeString(s.SHA256); err != nil || len(b) != 32 {
		return badRequest("/sha256", "sha256 must be 64 hex digits")
	}
	return requireCount(s.ElementCount)
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
