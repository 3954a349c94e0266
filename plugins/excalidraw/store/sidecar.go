package store

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// SidecarSchema identifies the sidecar format; a sidecar with another schema
// is treated as corrupt (absent), never guessed at.
const SidecarSchema = "dsh-excalidraw/revision@1"

// MaxRecentRequests is how many request ids per scene are remembered for
// idempotent retries.
const MaxRecentRequests = 32

const maxSidecarBytes = 1 << 20

// timeLayout is JavaScript's Date.toISOString format, which the browser side
// produces and parses natively: UTC, millisecond precision.
const timeLayout = "2006-01-02T15:04:05.000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// FormatTime is how the store writes times (updatedAt, a journal entry's
// at): UTC, milliseconds, as JavaScript's Date.toISOString.
func FormatTime(t time.Time) string { return formatTime(t) }

// sidecar is .dsh-excalidraw/<name>.meta.json. The scene file stays a plain,
// portable Excalidraw document; everything the store needs to know about
// revisions lives here.
type sidecar struct {
	Schema           string          `json:"schema"`
	Name             string          `json:"name"`
	Revision         int64           `json:"revision"`
	SHA256           string          `json:"sha256"`
	ByteLength       int64           `json:"byteLength"`
	ElementCount     int             `json:"elementCount"`
	UpdatedAt        string          `json:"updatedAt"`
	UpdatedBy        Actor           `json:"updatedBy"`
	UpdatedByName    string          `json:"updatedByName,omitempty"`
	PreviousRevision int64           `json:"previousRevision"`
	PreviousSHA256   string          `json:"previousSha256"`
	RecentRequests   []requestRecord `json:"recentRequests"`
}

// requestRecord remembers one committed request id. byteLength and
// elementCount go beyond the minimal record so a duplicate can return the
// complete evidence of the original commit.
type requestRecord struct {
	ID           string `json:"id"`
	Revision     int64  `json:"revision"`
	SHA256       string `json:"sha256"`
	ByteLength   int64  `json:"byteLength"`
	ElementCount int    `json:"elementCount"`
	At           string `json:"at"`
}

// parseSidecar decodes and validates a sidecar for name. Any defect makes it
// corrupt: a half-trusted revision record is worse than none, because the
// scene file is authoritative and can always rebuild it.
func parseSidecar(name string, data []byte) (*sidecar, error) {
	var sc sidecar
	if err := json.Unmarshal(data, &sc); err != nil {
		return nil, err
	}
	switch {
	case sc.Schema != SidecarSchema:
		return nil, fmt.Errorf("schema %q", sc.Schema)
	case sc.Name != name:
		return nil, fmt.Errorf("name %q", sc.Name)
	case sc.Revision < 0 || sc.PreviousRevision < 0 || sc.ByteLength < 0 || sc.ElementCount < 0:
		return nil, errors.New("negative number")
	case !isSHA256(sc.SHA256):
		return nil, errors.New("bad sha256")
	case sc.PreviousSHA256 != "" && !isSHA256(sc.PreviousSHA256):
		return nil, errors.New("bad previousSha256")
	case !sc.UpdatedBy.Valid():
		return nil, fmt.Errorf("updatedBy %q", sc.UpdatedBy)
	case len(sc.RecentRequests) > MaxRecentRequests:
		return nil, errors.New("too many recentRequests")
	}
	if _, err := time.Parse(time.RFC3339Nano, sc.UpdatedAt); err != nil {
		return nil, fmt.Errorf("updatedAt: %w", err)
	}
	return &sc, nil
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && s == toLowerASCII(s)
}

func toLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// encode renders the sidecar as indented JSON, so it is readable in a shell.
func (sc *sidecar) encode() []byte {
	data, _ := json.MarshalIndent(sc, "", "  ") // plain strings and numbers: cannot fail
	return append(data, '\n')
}

// meta converts to the public record.
func (sc *sidecar) meta() Meta {
	at, _ := time.Parse(time.RFC3339Nano, sc.UpdatedAt)
	return Meta{
		Name:             sc.Name,
		Revision:         sc.Revision,
		SHA256:           sc.SHA256,
		ByteLength:       sc.ByteLength,
		ElementCount:     sc.ElementCount,
		UpdatedAt:        at,
		UpdatedBy:        sc.UpdatedBy,
		UpdatedByName:    sc.UpdatedByName,
		PreviousRevision: sc.PreviousRevision,
		PreviousSHA256:   sc.PreviousSHA256,
	}
}

// findRequest returns the record of a remembered request id, or nil.
func (sc *sidecar) findRequest(id string) *requestRecord {
	if sc == nil || id == "" {
		return nil
	}
	for i := range sc.RecentRequests {
		if sc.RecentRequests[i].ID == id {
			return &sc.RecentRequests[i]
		}
	}
	return nil
}

// remember returns recent with rec appended, keeping the newest
// MaxRecentRequests. It copies, so the previous sidecar stays intact for
// rollback.
func remember(recent []requestRecord, rec requestRecord) []requestRecord {
	out := make([]requestRecord, 0, MaxRecentRequests)
	if n := len(recent) - (MaxRecentRequests - 1); n > 0 {
		recent = recent[n:]
	}
	out = append(out, recent...)
	return append(out, rec)
}

// sidecarState is what is on disk in the sidecar's place: raw bytes (kept so a
// failed save restores them byte for byte) and, if they are valid, the parsed
// record.
type sidecarState struct {
	raw     []byte   // nil: no sidecar file
	parsed  *sidecar // nil: absent or corrupt
	problem string   // why parsed is nil although raw is not
}

// readSidecar reads the sidecar of name from the meta dir. A symlink or
// non-regular file in its place is permission_denied (someone is tampering);
// unparseable content is reported through problem, not as an error.
func (s *Store) readSidecar(meta *os.File, name string) (sidecarState, error) {
	raw, info, err := s.fs.ReadFile(meta, sidecarFile(name), maxSidecarBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return sidecarState{}, nil
	}
	if err != nil {
		return sidecarState{}, fsError("read sidecar", err)
	}
	if !info.Mode().IsRegular() {
		return sidecarState{}, errorf(CodePermissionDenied, "sidecar of %s is not a regular file", name)
	}
	if info.Size() > maxSidecarBytes || int64(len(raw)) > maxSidecarBytes {
		return sidecarState{raw: []byte{}, problem: "sidecar too large"}, nil
	}
	sc, err := parseSidecar(name, raw)
	if err != nil {
		return sidecarState{raw: raw, problem: "sidecar corrupt: " + err.Error()}, nil
	}
	return sidecarState{raw: raw, parsed: sc}, nil
}
