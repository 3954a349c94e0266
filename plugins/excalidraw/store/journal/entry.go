package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/dshgo/dsh/internal/parallel"
)

// Image states: what an entry kept of the elements as they were before.
const (
	// ImagesStored: the blob holds the before-images of every affected element.
	ImagesStored = "stored"
	// ImagesSkipped: they were over the size cap and were not kept.
	ImagesSkipped = "skipped"
	// ImagesUnavailable: the previous bytes were not there to compare
	// (a file changed outside dsh, a corrupt file restored from a backup).
	ImagesUnavailable = "unavailable"
)

// Entry is the record of one commit: the meta part of a frame, small
// enough that listings read nothing else.
type Entry struct {
	// Commit is the commit id: a ULID, so ids sort by time across scenes.
	Commit string `json:"commit"`
	// Seq numbers the scene's entries from 1, so the first and the last
	// entry tell how many there are.
	Seq              int64  `json:"seq"`
	Scene            string `json:"scene"`
	Revision         int64  `json:"revision"`
	PreviousRevision int64  `json:"previousRevision"`
	// SHA256 and ByteLength are the file this commit wrote: recovery
	// tells from them whether the commit reached the file.
	SHA256       string `json:"sha256"`
	ByteLength   int64  `json:"byteLength"`
	ElementCount int    `json:"elementCount"`
	// At is when it committed (RFC 3339, UTC, milliseconds).
	At string `json:"at"`
	// Actor is the kind (agent, ui, recovery, system); Name who wrote it,
	// named by their credential ("claude (for erin)", "erin", a host
	// token's name) where known.
	Actor string `json:"actor"`
	Name  string `json:"name,omitempty"`
	// Bot is the connect token that wrote it (its name), Person the
	// person it acts for, or who wrote it in the editor, and PersonID
	// that person's id.
	Bot      string `json:"bot,omitempty"`
	Person   string `json:"person,omitempty"`
	PersonID string `json:"personId,omitempty"`
	// Client is the name the agent's MCP client gave itself: a detail.
	Client string `json:"client,omitempty"`
	// Via is the tool or route that wrote it.
	Via       string `json:"via,omitempty"`
	Note      string `json:"note,omitempty"`
	RequestID string `json:"requestId,omitempty"`
	// AccessID is the id of the request that made the commit, as its
	// access line (request_id) and X-Request-ID show it; RequestID is the
	// writer's idempotency key.
	AccessID string `json:"accessId,omitempty"`
	// Forced: a save that skipped the revision fence ("Overwrite anyway").
	Forced bool `json:"forced,omitempty"`
	// Undoes is the commit a restore or revert put back, and Mode which.
	Undoes string `json:"undoes,omitempty"`
	Mode   string `json:"mode,omitempty"`

	Created []string `json:"created,omitempty"`
	Updated []string `json:"updated,omitempty"`
	// Moved are the updated elements whose change was only where they are.
	Moved   []string `json:"moved,omitempty"`
	Deleted []string `json:"deleted,omitempty"`
	Revived []string `json:"revived,omitempty"`
	// Members are the document's other members it changed (appState,
	// files): what changed besides elements; Settings the members of
	// appState it changed.
	Members  []string `json:"members,omitempty"`
	Settings []string `json:"settings,omitempty"`
	// Images says what the blob holds (ImagesStored, …).
	Images string `json:"images"`
}

// Affected are the ids the commit changed, in the order created,
// updated, deleted, revived (Moved is a subset of Updated).
func (e *Entry) Affected() []string {
	out := make([]string, 0, len(e.Created)+len(e.Updated)+len(e.Deleted)+len(e.Revived))
	out = append(out, e.Created...)
	out = append(out, e.Updated...)
	out = append(out, e.Deleted...)
	return append(out, e.Revived...)
}

// Record puts what a Differ found the commit changed into e and returns
// the images the journal keeps: all of them (ImagesStored), or, when the
// before-images are over maxImageBytes, only the after-states
// (ImagesSkipped).
func (e *Entry) Record(c *Changes, maxImageBytes int) *Images {
	e.Created, e.Updated, e.Moved, e.Deleted, e.Revived = c.Created, c.Updated, c.Moved, c.Deleted, c.Revived
	e.Members, e.Settings = c.Members, c.Settings
	im := c.Images
	e.Images = ImagesStored
	if c.ImageBytes() > maxImageBytes {
		e.Images = ImagesSkipped
		im.Before = nil
	}
	return &im
}

// Touches reports whether the commit changed element id.
func (e *Entry) Touches(id string) bool {
	for _, l := range [][]string{e.Created, e.Updated, e.Deleted, e.Revived} {
		for _, x := range l {
			if x == id {
				return true
			}
		}
	}
	return false
}

// Images are the blob of a frame: each affected element as it was
// before the commit and a fingerprint of it after.
type Images struct {
	Before []Image `json:"before"`
	After  []State `json:"after"`
}

// Image is one element before a commit; Element is null when it did not
// exist (the commit created it).
type Image struct {
	ID      string          `json:"id"`
	Element json.RawMessage `json:"element"`
}

// State fingerprints an element as a commit left it: a later write that
// changed the element changed Hash (its bytes' digest). Absent: the
// commit removed it from the file.
type State struct {
	ID      string `json:"id"`
	Version int64  `json:"version,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
	Absent  bool   `json:"absent,omitempty"`
	Hash    string `json:"hash,omitempty"`
}

// BeforeOf returns the image of id, if the entry kept one.
func (im *Images) BeforeOf(id string) (Image, bool) {
	for _, x := range im.Before {
		if x.ID == id {
			return x, true
		}
	}
	return Image{}, false
}

// AfterOf returns the after-state of id.
func (im *Images) AfterOf(id string) (State, bool) {
	for _, x := range im.After {
		if x.ID == id {
			return x, true
		}
	}
	return State{}, false
}

// IDs are what a commit changed: the elements, by what it did to them,
// and the document's other top-level members (appState, files). A Differ
// reports them in Changes and a log row shows them, as the members of an
// Entry of the same names do.
type IDs struct {
	Created []string `json:"created,omitempty"`
	Updated []string `json:"updated,omitempty"`
	// Moved are the updated elements whose change was only where they are.
	Moved   []string `json:"moved,omitempty"`
	Deleted []string `json:"deleted,omitempty"`
	Revived []string `json:"revived,omitempty"`
	Members []string `json:"members,omitempty"`
	// Settings are the appState members it changed, where appState is
	// among Members ("viewBackgroundColor", "gridSize").
	Settings []string `json:"settings,omitempty"`
}

// Changes are what a commit did to the elements, as a Differ reports
// them: the ids by kind, and the images.
type Changes struct {
	IDs
	Images Images
}

// ElementChange is what a commit did to one element, as a Differ tells
// it.
type ElementChange int

// What a commit may do to an element.
const (
	ElementUnchanged ElementChange = iota // not there before and created deleted, or the same element
	ElementCreated
	ElementUpdated
	ElementMoved // updated, and only where it is
	ElementDeleted
	ElementRevived
)

// Classify is the one rule of what a commit did to an element: whether
// it existed before, was deleted before and is deleted now, and whether
// it is the same (its bytes, or the element written out otherwise). A
// Differ that knows an updated element only moved makes it
// ElementMoved.
func Classify(existed, wasDeleted, isDeleted, same bool) ElementChange {
	switch {
	case !existed && isDeleted:
		return ElementUnchanged
	case !existed:
		return ElementCreated
	case same || (wasDeleted && isDeleted):
		return ElementUnchanged
	case wasDeleted:
		return ElementRevived
	case isDeleted:
		return ElementDeleted
	}
	return ElementUpdated
}

// Add records that the commit did ch to element id: its id in the list
// of ch (a moved one is also updated), its bytes before (nil when it did
// not exist) and its state after. An unchanged element is not recorded.
func (c *Changes) Add(ch ElementChange, id string, before []byte, after State) {
	switch ch {
	case ElementUnchanged:
		return
	case ElementCreated:
		c.Created = append(c.Created, id)
	case ElementUpdated, ElementMoved:
		c.Updated = append(c.Updated, id)
		if ch == ElementMoved {
			c.Moved = append(c.Moved, id)
		}
	case ElementDeleted:
		c.Deleted = append(c.Deleted, id)
	case ElementRevived:
		c.Revived = append(c.Revived, id)
	}
	im := Image{ID: id}
	if before != nil {
		im.Element = bytes.Clone(before)
	}
	c.Images.Before = append(c.Images.Before, im)
	c.Images.After = append(c.Images.After, after)
}

// ImageBytes is the size of the before-images, uncompressed.
func (c *Changes) ImageBytes() int {
	n := 0
	for _, im := range c.Images.Before {
		n += len(im.Element) + len(im.ID)
	}
	return n
}

// Fingerprints is Fingerprint of each of raws, on every processor when
// there are many (a create of a thousand elements).
func Fingerprints(raws [][]byte) []string {
	out := make([]string, len(raws))
	parallel.For(len(raws), 64, func(i int) bool {
		out[i] = Fingerprint(raws[i])
		return true
	})
	return out
}

// Fingerprint is State.Hash of an element's JSON: the first 16 hex digits
// of the SHA-256 of its canonical form (RFC 8785: members sorted, no
// whitespace, numbers in one spelling), so an element another program
// wrote out with its members in another order is the same element.
// Bytes with no canonical form (not one JSON value, or a duplicate name)
// are hashed as they are.
func Fingerprint(raw []byte) string {
	c := canonicalizers.Get().(*canonicalizer)
	var sum [sha256.Size]byte
	if v, err := c.canonical(c.out[:0], raw); err == nil {
		sum = sha256.Sum256(v)
	} else {
		sum = sha256.Sum256(raw)
	}
	c.out = c.out[:0]
	if cap(c.out) > maxKeptCanonical || cap(c.scratch) > maxKeptCanonical {
		c.out, c.scratch = nil, nil
	}
	canonicalizers.Put(c)
	return hex.EncodeToString(sum[:8])
}

// maxKeptCanonical bounds the buffers a pooled canonicalizer keeps: an
// image's data URL is let go after its fingerprint.
const maxKeptCanonical = 64 << 10
