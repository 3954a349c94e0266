package store

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// Restore writes a scene that is not there yet exactly as archived
// (RestoreWritten): its scene file with the archived bytes, a sidecar
// with the archived record and request ids (no new revision, writer or
// time: no commit), its journal re-encoded from the archived entries and
// images (commit ids, sequence numbers and every field kept) and a
// backup of each archived revision, all under the scene's locks, through
// the store's FS and durably; the scene file is read back and checked
// as a commit's is (io_error, and nothing left, if it fails).
//
// Everything is checked before anything is locked or written (Check,
// with the store's codec and MaxSceneBytes; and that each commit fits a
// journal frame, invalid_request).
//
// A scene that is already there is compared with the archive as the
// store keeps them: the same record, bytes, request ids, journal and
// backups is RestoreUnchanged, and nothing is written; anything else is
// already_exists with details {name, differs: the parts that differ
// ("revision", "sha256", "meta", "requests", "journal", "revisions", or
// "unrecorded" for a file its sidecar does not describe), revision,
// sha256, archivedRevision, archivedSha256}, and nothing is changed
// (not even the repair a Read would make). A scene file that is a
// symlink is permission_denied.
//
// Crash safety: the scene file is written last, created by rename
// (refusing to replace one that appeared meanwhile), once the journal,
// the backups and the sidecar are durable. Until that rename the scene
// does not exist for the store (Read and Head are not_found, List leaves
// it out, Save and Update are not_found, and Create starts it afresh,
// replacing the sidecar and journal), so a Restore cut short leaves no
// scene, never a different valid one; after it the scene is complete.
// (Log and ReadRevision, which read the journal and the backups without
// looking for the scene file, may show the history of such a scene.)
// A Restore that fails removes the files it created; one cut short by a
// crash leaves them, and the next Restore of the same archive takes them
// as its own. Files of the name the archive does not have (a sidecar,
// journal or backups a scene deleted outside the store left behind) are
// not overwritten: such a Restore is already_exists with details {name,
// leftover: "sidecar", "journal", "backups"}, nothing changed.
func (s *Store) Restore(ctx context.Context, a *SceneArchive) (RestoreOutcome, error) {
	if err := a.Check(s.opts.Codec, s.opts.MaxSceneBytes); err != nil {
		return "", err
	}
	name := a.Meta.Name
	frames, err := a.journalFile()
	if err != nil {
		return "", err
	}
	sc := a.sidecar()
	side := sc.encode()

	t, err := s.begin(ctx, name)
	if err != nil {
		return "", err
	}
	defer t.end()
	info, err := s.fs.Lstat(s.root, sceneFile(name))
	switch {
	case err == nil && info.Mode()&fs.ModeSymlink != 0:
		return "", errorf(CodePermissionDenied, "scene %s is a symlink", name).with("name", name)
	case err == nil:
		return t.restoreOver(a)
	case !errors.Is(err, fs.ErrNotExist):
		return "", fsError("stat scene "+name, err)
	}
	if err := t.checkLeftovers(a, side); err != nil {
		return "", err
	}
	if err := t.writeArchive(a, sc, side, frames); err != nil {
		return "", err
	}
	s.queue.moved(name, sc)
	s.log.Info("restored scene from an archive", zap.String("name", name), zap.Int64("revision", sc.Revision),
		zap.Int("journal", len(a.Journal)), zap.Int("backups", len(a.Revisions)))
	return RestoreWritten, nil
}

// Check is what every backend checks of an archive before restoring
// it, so that what one store archived another holds alike: the name
// (invalid_name); the document, as a write's (CheckDocument: too_large
// over maxSceneBytes, the codec's verdict), and each kept revision's
// size (too_large); and, as invalid_request, that the parts fit
// together (see check). A nil archive is invalid_request.
func (a *SceneArchive) Check(c Codec, maxSceneBytes int64) error {
	if a == nil {
		return errorf(CodeInvalidRequest, "no archive to restore")
	}
	if err := ValidName(a.Meta.Name); err != nil {
		return err
	}
	count, err := CheckDocument(c, a.Data, maxSceneBytes)
	if err != nil {
		return err
	}
	for _, r := range a.Revisions {
		if int64(len(r.Data)) > maxSceneBytes {
			return TooLarge("the archived revision "+backupFile(a.Meta.Name, r.Revision, !r.Corrupt)+" has", int64(len(r.Data)), maxSceneBytes)
		}
	}
	return a.check(count)
}

// check refuses an archive whose parts do not fit together; count is
// the element count the codec found in its document. The record must be
// the document's (hash, length, element count) and one a sidecar can
// hold; request ids non-empty and distinct; the journal this scene's,
// oldest first (sequence numbers rising), its commit ids distinct and
// none of a revision past the record's (a store would take it for a
// commit that never completed); the kept revisions distinct and not
// negative.
func (a *SceneArchive) check(count int) error {
	m := a.Meta
	name := m.Name
	switch {
	case m.Revision < 1:
		return badArchive(name, "revision %d is not a revision", m.Revision)
	case m.SHA256 != sha256Hex(a.Data) || m.ByteLength != int64(len(a.Data)):
		return badArchive(name, "its record's sha256 and byteLength are not those of its document")
	case m.ElementCount != count:
		return badArchive(name, "its record has %d elements, its document %d", m.ElementCount, count)
	}
	if _, err := parseSidecar(name, a.sidecar().encode()); err != nil {
		return badArchive(name, "its record cannot be kept: %v", err)
	}
	ids := map[string]bool{}
	for _, r := range a.Requests {
		if r.ID == "" || ids[r.ID] || len(r.ID) > maxRequestIDLen {
			return badArchive(name, "request id %q is empty, repeated or too long", r.ID)
		}
		ids[r.ID] = true
	}
	commits := map[string]bool{}
	var seq int64
	for _, c := range a.Journal {
		e := &c.Entry
		switch {
		case e.Scene != name:
			return badArchive(name, "commit %s is of scene %q", e.Commit, e.Scene)
		case e.Commit == "" || commits[e.Commit]:
			return badArchive(name, "commit id %q is empty or repeated", e.Commit)
		case e.Revision < 1 || e.Revision > m.Revision:
			return badArchive(name, "commit %s is of revision %d, not one up to %d", e.Commit, e.Revision, m.Revision)
		case e.Seq <= seq:
			return badArchive(name, "commit %s has sequence number %d after %d (the journal is oldest first)", e.Commit, e.Seq, seq)
		}
		commits[e.Commit], seq = true, e.Seq
	}
	type copyOf struct {
		rev     int64
		corrupt bool
	}
	kept := map[copyOf]bool{}
	for _, r := range a.Revisions {
		key := copyOf{r.Revision, r.Corrupt}
		if r.Revision < 0 || kept[key] {
			return badArchive(name, "kept revision %d is negative or repeated", r.Revision)
		}
		kept[key] = true
	}
	return nil
}

func badArchive(name, format string, args ...any) *Error {
	return errorf(CodeInvalidRequest, "archive of scene %s: "+format, append([]any{name}, args...)...).with("name", name)
}

// journalFile is the journal the archive's commits make: each one's
// frame, oldest first.
func (a *SceneArchive) journalFile() ([]byte, error) {
	var out []byte
	for _, c := range a.Journal {
		frame, err := journal.Encode(&c.Entry, c.Images)
		if err != nil {
			return nil, newError(CodeInvalidRequest, "archive of scene "+a.Meta.Name+": commit "+c.Entry.Commit, err).
				with("name", a.Meta.Name).with("commit", c.Entry.Commit)
		}
		out = append(out, frame...)
	}
	return out, nil
}

// restoreOver is Restore of a scene that is there: compared, never
// written.
func (t *txn) restoreOver(a *SceneArchive) (RestoreOutcome, error) {
	have, settled, err := t.archived()
	if err != nil {
		return "", err
	}
	differs := []string{"unrecorded"}
	if settled {
		if differs = archiveDiff(have, a); len(differs) == 0 {
			return RestoreUnchanged, nil
		}
	}
	e := errorf(CodeAlreadyExists, "scene %s already exists and is not the archived one (%v differ)", t.name, differs).
		with("name", t.name).with("differs", differs).
		with("archivedRevision", a.Meta.Revision).with("archivedSha256", a.Meta.SHA256)
	if settled {
		e.with("revision", have.Meta.Revision).with("sha256", have.Meta.SHA256)
	}
	return "", e
}

// checkLeftovers refuses to restore over files of the name that are not
// the archive's: a sidecar (side is the archive's), a journal with other
// entries, or backups it does not have. Those an interrupted Restore of
// the same archive left are the archive's, and an empty journal holds
// nothing.
func (t *txn) checkLeftovers(a *SceneArchive, side []byte) error {
	var left []string
	cur, err := t.s.readSidecar(t.dirs.meta, t.name)
	if err != nil {
		return err
	}
	if cur.raw != nil && !bytes.Equal(cur.raw, side) {
		left = append(left, "sidecar")
	}
	commits, size, err := t.archivedJournal(unbounded)
	if err != nil {
		return err
	}
	if size > 0 && !sameCommits(commits, a.Journal) {
		left = append(left, "journal")
	}
	revs, err := t.archivedRevisions()
	if err != nil {
		return err
	}
	for _, r := range revs {
		if !a.keeps(r) {
			left = append(left, "backups")
			break
		}
	}
	if len(left) == 0 {
		return nil
	}
	return errorf(CodeAlreadyExists, "scene %s is not there, but its %v are, and are not the archive's (left by a scene deleted outside the store?); move them aside to restore it", t.name, left).
		with("name", t.name).with("leftover", left)
}

// keeps reports whether a has r, a kept revision, byte for byte.
func (a *SceneArchive) keeps(r ArchivedRevision) bool {
	return slices.ContainsFunc(a.Revisions, func(x ArchivedRevision) bool {
		return x.Revision == r.Revision && x.Corrupt == r.Corrupt && bytes.Equal(x.Data, r.Data)
	})
}

// writeArchive writes the files of a scene that is not there: the
// journal, the backups (their directory fsynced once for all), the
// sidecar, and the scene file last, created by rename and read back (see
// Restore). On failure it removes what it created, the scene file and
// the sidecar first.
func (t *txn) writeArchive(a *SceneArchive, sc *sidecar, side, frames []byte) (err error) {
	var made []func()
	defer func() {
		if err != nil {
			for _, undo := range made {
				undo()
			}
			t.s.log.Warn("restore failed; removed what it wrote", zap.String("name", t.name), zap.Error(err))
		}
	}()
	// created runs write and, if it created dir/file, makes the
	// failure path remove it again (newest first).
	created := func(dir *os.File, file string, write func() error) error {
		_, statErr := t.s.fs.Lstat(dir, file)
		if err := write(); err != nil {
			return err
		}
		if errors.Is(statErr, fs.ErrNotExist) {
			made = append([]func(){func() { t.s.removeQuietly(dir, file) }}, made...)
		}
		return nil
	}
	if len(frames) > 0 {
		if err := created(t.dirs.journal, journalFile(t.name), func() error {
			return t.s.writeAtomic(t.dirs.journal, journalFile(t.name), frames, 0o600, false)
		}); err != nil {
			return err
		}
	}
	for _, r := range a.Revisions {
		file := backupFile(t.name, r.Revision, !r.Corrupt)
		if err := created(t.dirs.backups, file, func() error {
			tmp, err := t.s.prepareTemp(t.dirs.backups, file, r.Data, 0o600)
			if err != nil {
				return err
			}
			return t.s.installTemp(t.dirs.backups, tmp, file, false)
		}); err != nil {
			return err
		}
	}
	if len(a.Revisions) > 0 {
		t.s.syncDir(t.dirs.backups)
	}
	if err := created(t.dirs.meta, sidecarFile(t.name), func() error {
		return t.s.writeAtomic(t.dirs.meta, sidecarFile(t.name), side, 0o600, false)
	}); err != nil {
		return err
	}
	scene := sceneFile(t.name)
	if err := created(t.s.root, scene, func() error {
		return t.s.writeAtomic(t.s.root, scene, a.Data, 0o600, true)
	}); err != nil {
		return err
	}
	if _, _, err := t.verify(sc, a.Data); err != nil {
		return newError(CodeIOError, "restore of scene "+t.name+" failed its read-back", err).
			with("name", t.name).with("stage", "verify")
	}
	return nil
}
