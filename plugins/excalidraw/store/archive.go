package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"slices"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// SceneArchive is everything a store keeps of one scene, verbatim: what
// a migration between backends copies (see Archiver). Times are kept at
// the store's precision (milliseconds, UTC).
type SceneArchive struct {
	// Meta is the current revision's record: the sidecar's revision,
	// hash, length, element count, writer and the revision before it.
	Meta Meta
	// Data is the current revision's bytes, exactly.
	Data []byte
	// Requests are the remembered request ids, oldest first (at most
	// MaxRecentRequests): a retry of one after the copy is a duplicate.
	Requests []RequestRecord
	// Journal is the scene's history, oldest first.
	Journal []ArchivedCommit
	// Revisions are the kept copies of earlier revisions (the backups),
	// oldest first.
	Revisions []ArchivedRevision
}

// RequestRecord is one remembered request id: the commit it made, whose
// evidence a retry of it is given back.
type RequestRecord struct {
	ID           string
	Revision     int64
	SHA256       string
	ByteLength   int64
	ElementCount int
	At           time.Time
}

// ArchivedCommit is one journal entry with its before-images (nil when
// the entry kept none).
type ArchivedCommit struct {
	Entry  journal.Entry
	Images *journal.Images
}

// ArchivedRevision is one kept copy of an earlier revision. Corrupt
// marks bytes that did not parse when they were superseded: kept so that
// nothing is lost, but never served by ReadRevision or used by recovery.
type ArchivedRevision struct {
	Revision int64
	Corrupt  bool
	Data     []byte
}

// Archiver reads and writes whole scenes verbatim, for migrating them
// between backends.
type Archiver interface {
	// Archive returns everything the store keeps of a scene, read as one
	// revision (not_found if there is no such scene).
	Archive(ctx context.Context, name string) (*SceneArchive, error)
	// Restore writes a scene that is not there yet exactly as archived:
	// the same revision record, request ids, journal and kept revisions,
	// with no commit of its own. A scene that is there already exactly as
	// archived is left alone (RestoreUnchanged); one that is there and
	// differs is refused with already_exists, its details naming what
	// differs, and nothing is changed.
	Restore(ctx context.Context, a *SceneArchive) (RestoreOutcome, error)
}

// RestoreOutcome is what a Restore did.
type RestoreOutcome string

// The outcomes of Restore.
const (
	// RestoreWritten: the scene was not there; now it is, as archived.
	RestoreWritten RestoreOutcome = "restored"
	// RestoreUnchanged: the scene was there exactly as archived; nothing
	// was written (a migration run again).
	RestoreUnchanged RestoreOutcome = "unchanged"
)

var _ Archiver = (*Store)(nil)

// Archive reads a scene whole under its locks (waiting for writers as a
// write does, scene_busy after LockTimeout), so its record, bytes,
// journal and backups are of one revision. It writes nothing when the
// scene's sidecar describes its file; otherwise it first repairs the
// scene as a Read would (see load), and a corrupt file without a valid
// backup is corrupt_scene. The journal is what Log and Commit serve: the
// entries up to the scene's revision. A backup that is not a regular
// file is permission_denied and one over MaxSceneBytes too_large, rather
// than being left out.
func (s *Store) Archive(ctx context.Context, name string) (*SceneArchive, error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	t, err := s.begin(ctx, name)
	if err != nil {
		return nil, err
	}
	defer t.end()
	a, settled, err := t.archived()
	if err != nil || settled {
		return a, err
	}
	cur, err := t.load()
	switch {
	case err != nil:
		return nil, err
	case !cur.exists:
		return nil, notFoundError(name)
	case cur.corrupt != nil:
		return nil, corruptError(cur)
	}
	if a, settled, err = t.archived(); err == nil && !settled {
		err = errorf(CodeIOError, "scene %s changed while it was archived", name).with("name", name)
	}
	return a, err
}

// archived reads the txn's scene as it is on disk: settled is false (and
// nothing is returned) when its sidecar does not describe its file, which
// load would repair. A missing scene file is not_found.
func (t *txn) archived() (a *SceneArchive, settled bool, err error) {
	side, err := t.s.readSidecar(t.dirs.meta, t.name)
	if err != nil {
		return nil, false, err
	}
	data, _, err := t.s.readScene(t.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, notFoundError(t.name)
	case err != nil:
		return nil, false, err
	}
	sc := side.parsed
	if sc == nil || sc.SHA256 != sha256Hex(data) || sc.ByteLength != int64(len(data)) {
		return nil, false, nil
	}
	a = &SceneArchive{Meta: sc.meta(), Data: data, Requests: requestsOf(sc.RecentRequests)}
	if a.Journal, _, err = t.archivedJournal(sc.Revision); err != nil {
		return nil, false, err
	}
	if a.Revisions, err = t.archivedRevisions(); err != nil {
		return nil, false, err
	}
	return a, true, nil
}

// archivedJournal reads the journal's entries of revisions up to head,
// with their images, oldest first, as Log and Commit see them; size is
// the journal file's (0 when there is none).
func (t *txn) archivedJournal(head int64) (commits []ArchivedCommit, size int64, err error) {
	f, err := t.s.fs.OpenFile(t.dirs.journal, journalFile(t.name), os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fsError("open journal", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err == nil {
		err = checkJournalFile(t.name, info)
	}
	if err != nil {
		return nil, 0, fsError("stat journal", err)
	}
	var frames []*journal.Frame
	if err := walkBack(f, info.Size(), func(fr *journal.Frame) bool {
		if fr.Entry.Revision <= head {
			frames = append(frames, fr)
		}
		return true
	}); err != nil {
		return nil, 0, fsError("read journal", err)
	}
	slices.Reverse(frames)
	commits = make([]ArchivedCommit, len(frames))
	for i, fr := range frames {
		im, err := fr.Images(f)
		if err != nil {
			return nil, 0, fsError("read the images of commit "+fr.Entry.Commit, err).with("commit", fr.Entry.Commit)
		}
		commits[i] = ArchivedCommit{Entry: fr.Entry, Images: im}
	}
	return commits, info.Size(), nil
}

// archivedRevisions reads every backup of the txn's scene, oldest first.
func (t *txn) archivedRevisions() ([]ArchivedRevision, error) {
	entries, err := t.listBackups()
	if err != nil {
		return nil, err
	}
	out := make([]ArchivedRevision, 0, len(entries))
	for _, e := range entries {
		data, info, err := t.s.fs.ReadFile(t.dirs.backups, e.file, t.s.opts.MaxSceneBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, fsError("read backup "+e.file, err)
		case !info.Mode().IsRegular():
			return nil, errorf(CodePermissionDenied, "backup %s is not a regular file", e.file).with("name", t.name)
		case max(info.Size(), int64(len(data))) > t.s.opts.MaxSceneBytes:
			return nil, t.s.tooLarge("backup "+e.file+" has", max(info.Size(), int64(len(data))))
		}
		out = append(out, ArchivedRevision{Revision: e.rev, Corrupt: !e.valid, Data: data})
	}
	sortRevisions(out)
	return out, nil
}

// sortRevisions orders kept revisions oldest first, a revision's valid
// copy before its corrupt one.
func sortRevisions(rs []ArchivedRevision) {
	slices.SortFunc(rs, func(a, b ArchivedRevision) int {
		if c := cmp.Compare(a.Revision, b.Revision); c != 0 {
			return c
		}
		return cmp.Compare(b2i(a.Corrupt), b2i(b.Corrupt))
	})
}

// requestsOf maps the sidecar's request records to the archive's.
func requestsOf(recs []requestRecord) []RequestRecord {
	if len(recs) == 0 {
		return nil
	}
	out := make([]RequestRecord, len(recs))
	for i, r := range recs {
		at, _ := timeParse(r.At)
		out[i] = RequestRecord{ID: r.ID, Revision: r.Revision, SHA256: r.SHA256, ByteLength: r.ByteLength,
			ElementCount: r.ElementCount, At: at}
	}
	return out
}

// sidecar is the sidecar that holds a's record and request ids.
func (a *SceneArchive) sidecar() *sidecar {
	m := a.Meta
	sc := &sidecar{
		Schema: SidecarSchema, Name: m.Name, Revision: m.Revision, SHA256: m.SHA256, ByteLength: m.ByteLength,
		ElementCount: m.ElementCount, UpdatedAt: formatTime(m.UpdatedAt), UpdatedBy: m.UpdatedBy,
		UpdatedByName: m.UpdatedByName, PreviousRevision: m.PreviousRevision, PreviousSHA256: m.PreviousSHA256,
	}
	for _, r := range a.Requests {
		sc.RecentRequests = append(sc.RecentRequests, requestRecord{ID: r.ID, Revision: r.Revision, SHA256: r.SHA256,
			ByteLength: r.ByteLength, ElementCount: r.ElementCount, At: formatTime(r.At)})
	}
	return sc
}

// archiveDiff names the parts in which have, a scene as a store holds
// it, is not want, compared as the store keeps them (the sidecar's
// record, the journal's frames before compression, the backups' bytes).
// None: have is want.
func archiveDiff(have, want *SceneArchive) []string {
	var out []string
	hs, ws := have.sidecar(), want.sidecar()
	if hs.Revision != ws.Revision {
		out = append(out, "revision")
	}
	if hs.SHA256 != ws.SHA256 || !bytes.Equal(have.Data, want.Data) {
		out = append(out, "sha256")
	}
	hr, wr := hs.RecentRequests, ws.RecentRequests
	hs.RecentRequests, ws.RecentRequests = nil, nil
	hs.Revision, ws.Revision, hs.SHA256, ws.SHA256 = 0, 0, "", ""
	if !bytes.Equal(hs.encode(), ws.encode()) {
		out = append(out, "meta")
	}
	if !slices.Equal(hr, wr) {
		out = append(out, "requests")
	}
	if !sameCommits(have.Journal, want.Journal) {
		out = append(out, "journal")
	}
	if !sameRevisions(have.Revisions, want.Revisions) {
		out = append(out, "revisions")
	}
	return out
}

// sameCommits reports whether two journals hold the same entries with
// the same images, compared as a frame holds them before compression
// (their JSON: so a nil list and an empty one, both left out of an
// entry, are the same, and an element's image is compared compacted).
func sameCommits(a, b []ArchivedCommit) bool {
	return slices.EqualFunc(a, b, func(x, y ArchivedCommit) bool {
		return sameJSON(&x.Entry, &y.Entry) && (x.Images == nil) == (y.Images == nil) && sameJSON(x.Images, y.Images)
	})
}

// sameJSON reports whether x and y encode alike.
func sameJSON(x, y any) bool {
	jx, errx := json.Marshal(x)
	jy, erry := json.Marshal(y)
	return errx == nil && erry == nil && bytes.Equal(jx, jy)
}

// sameRevisions reports whether two sets of kept revisions are the same,
// whatever their order.
func sameRevisions(a, b []ArchivedRevision) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sortRevisions(a)
	sortRevisions(b)
	return slices.EqualFunc(a, b, func(x, y ArchivedRevision) bool {
		return x.Revision == y.Revision && x.Corrupt == y.Corrupt && bytes.Equal(x.Data, y.Data)
	})
}

// unbounded is a head above every revision: all of a journal's entries.
const unbounded = math.MaxInt64
