package store

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxRequestIDLen bounds request ids: they are stored in every sidecar.
const maxRequestIDLen = 128

// checkWrite validates what every write names: the scene, who is writing
// (every write is attributed), and the optional request id.
func checkWrite(name string, actor Actor, requestID string, attr Attribution) error {
	if err := ValidName(name); err != nil {
		return err
	}
	if !actor.Valid() {
		return errorf(CodeInvalidRequest, "actor %q is not one of agent, ui, recovery, system", actor)
	}
	if err := attr.check(); err != nil {
		return err
	}
	if len(requestID) > maxRequestIDLen {
		return errorf(CodeInvalidRequest, "request id is longer than %d bytes", maxRequestIDLen)
	}
	for _, r := range requestID {
		if !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			return errorf(CodeInvalidRequest, "request id must be printable UTF-8")
		}
	}
	return nil
}

// CheckWrite is what every backend checks of a write before anything
// else: the name, the actor, the attribution's bounds and the request id.
func CheckWrite(name string, actor Actor, requestID string, attr Attribution) error {
	return checkWrite(name, actor, requestID, attr)
}

// CheckDocument is what every backend checks of bytes about to be
// written, and how it reports them: too_large over maxSceneBytes (see
// TooLarge), then the codec's verdict (its own *Error or CodedError kept,
// anything else invalid_scene). It returns the element count.
func CheckDocument(c Codec, data []byte, maxSceneBytes int64) (int, error) {
	if int64(len(data)) > maxSceneBytes {
		return 0, TooLarge("the scene would have", int64(len(data)), maxSceneBytes)
	}
	return inspect(c, data)
}

// inspectNew checks bytes about to be written: size first (cheap), then the
// codec. It runs before any lock is taken, so a bad document never delays
// other writers.
func (s *Store) inspectNew(data []byte) (int, error) {
	return CheckDocument(s.opts.Codec, data, s.opts.MaxSceneBytes)
}

// inspect is the codec's verdict on data as the store reports it.
func inspect(c Codec, data []byte) (int, error) {
	n, err := c.Inspect(data)
	if err == nil {
		return n, nil
	}
	var se *Error
	var ce CodedError
	if errors.As(err, &se) || errors.As(err, &ce) {
		return 0, err
	}
	return 0, newError(CodeInvalidScene, "scene document rejected", err)
}

// tooLarge is too_large for a document of size bytes, over MaxSceneBytes.
// Its details are those of every limit error of the plugin (the scene
// package's sceneerr.OverLimit): the limit's name, its value and the
// document's, so a client tells the limit without reading the message.
func (s *Store) tooLarge(subject string, size int64) *Error {
	return TooLarge(subject, size, s.opts.MaxSceneBytes)
}

// TooLarge is too_large for a document of size bytes over the bound max
// (MaxSceneBytes), subject saying whose ("the scene would have"), with
// the details of every limit error: {limit: "maxSceneBytes", max, actual}.
func TooLarge(subject string, size, max int64) *Error {
	return errorf(CodeTooLarge, "%s %d bytes; the limit is %d (maxSceneBytes)", subject, size, max).
		with("limit", "maxSceneBytes").with("max", max).with("actual", size)
}

// duplicateResult is the answer to a request id that was already committed:
// the evidence of that commit, without doing anything again. Verified is
// true because the commit was verified when it happened. Its commit id is
// known when that commit is the scene's newest journal entry (read as the
// scene was loaded), else left empty: the sidecar does not keep it, and
// the journal is not searched for a retry.
func duplicateResult(t *txn, cur *current, rec *requestRecord) *Result {
	at, _ := timeParse(rec.At)
	m := Meta{Name: cur.meta.Name, Revision: rec.Revision, SHA256: rec.SHA256, ByteLength: rec.ByteLength,
		ElementCount: rec.ElementCount, UpdatedAt: at}
	if rec.Revision == cur.meta.Revision && rec.SHA256 == cur.meta.SHA256 {
		m = cur.meta
	}
	res := &Result{Meta: m, SavedAt: at, Verified: true, Duplicate: true}
	if j := t.journal; j != nil && j.last != nil && j.last.Entry.RequestID == rec.ID && j.last.Entry.Revision == rec.Revision {
		res.Commit = j.last.Entry.Commit
	}
	return res
}

// Conflict is revision_conflict for a write based on expected over the
// scene whose current record is cur, with the details a client needs to
// re-read and retry.
func Conflict(cur Meta, expected int64) *Error { return conflictError(&current{meta: cur}, expected) }

// conflictError reports a failed revision fence with what the client needs
// to re-read and retry.
func conflictError(cur *current, expected int64) *Error {
	e := errorf(CodeRevisionConflict, "scene %s is at revision %d, not %d", cur.meta.Name, cur.meta.Revision, expected).
		with("name", cur.meta.Name).
		with("currentRevision", cur.meta.Revision).
		with("currentSha256", cur.meta.SHA256).
		with("expectedRevision", expected).
		with("updatedAt", formatTime(cur.meta.UpdatedAt)).
		with("updatedBy", string(cur.meta.UpdatedBy))
	if cur.meta.UpdatedByName != "" {
		e.with("updatedByName", cur.meta.UpdatedByName)
	}
	return e
}

func corruptError(cur *current) *Error {
	return newError(CodeCorruptScene, "scene "+cur.meta.Name+" does not parse and no valid backup exists", cur.corrupt).
		with("name", cur.meta.Name).with("revision", cur.meta.Revision).with("sha256", cur.sha)
}

// NotFound is the error for a scene that does not exist: also what a
// caller who may not see a scene is told, so the two cannot be told apart.
func NotFound(name string) *Error { return notFoundError(name) }

func notFoundError(name string) *Error {
	return errorf(CodeNotFound, "scene %s does not exist", name).with("name", name)
}

// check bounds what a write says about itself: it is stored with every
// commit.
func (a Attribution) check() error {
	for _, f := range []struct {
		field, v string
		max      int
	}{{"name", a.Name, maxAttrName}, {"bot", a.Bot, maxAttrName}, {"person", a.Person, maxAttrName}, {"personId", a.PersonID, maxAttrName}, {"client", a.Client, maxAttrName}, {"via", a.Via, maxAttrVia}, {"note", a.Note, maxAttrNote}, {"undoes", a.Undoes, maxAttrVia}, {"mode", a.Mode, maxAttrVia}} {
		if len(f.v) > f.max {
			return errorf(CodeInvalidRequest, "%s is longer than %d bytes", f.field, f.max).with("field", f.field).with("max", f.max)
		}
		if !utf8.ValidString(f.v) {
			return errorf(CodeInvalidRequest, "%s must be UTF-8", f.field).with("field", f.field)
		}
		// U+0000 is no text any store must keep (PostgreSQL's cannot):
		// refused here, the same on every backend.
		if strings.IndexByte(f.v, 0) >= 0 {
			return errorf(CodeInvalidRequest, "%s must not contain U+0000", f.field).with("field", f.field)
		}
	}
	return nil
}
