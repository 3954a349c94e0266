package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
	"io/fs"
	"slices"
	"time"

	"go.uber.org/zap"
)

// current is a scene's state as found (and, if needed, repaired) inside a txn.
type current struct {
	exists bool
	data   []byte
	perm   fs.FileMode
	sha    string
	meta   Meta
	side   sidecarState
	// corrupt is the codec's complaint about a scene file that does not parse
	// and could not be restored from a backup; meta.Revision is then the last
	// known revision.
	corrupt error
	// stamp is the identity and times of the file whose content is data,
	// when they prove it (stamped: a later change to the file changes
	// them), so that a commit may link the file as its backup instead of
	// copying data (linkBackup).
	stamp   fileStamp
	stamped bool
}

// holds reports whether data is exactly the scene's valid current file. It
// compares with the bytes load read under the lock and checked against
// the sidecar (or reconciled it with), so such data is already written and
// verified. A missing or corrupt file holds nothing: writing over it is a
// change.
func (cur *current) holds(data []byte) bool {
	return cur.exists && cur.corrupt == nil && bytes.Equal(cur.data, data)
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// load reads the txn's scene and brings its sidecar in line with it. This is
// where the recovery table is implemented:
//
//  1. Read the sidecar; a corrupt one is treated as absent.
//  2. Lstat then open the scene file without following symlinks, and fstat
//     the open file: a symlink, a non-regular file or a file with other hard
//     links is permission_denied; missing means !exists.
//  3. If the sidecar's hash and length match the file, done: the sidecar was
//     written after the file was verified, so the file needs no parsing.
//     When this Store committed the pair and neither file changed since
//     (the sidecar's bytes, the file's identity and ctime: knownData), the
//     bytes it wrote stand for the file, unread.
//  4. Otherwise, if the file parses, it is a crash or an external edit: the
//     file wins, and the sidecar is rebuilt at the next revision by
//     "recovery" (reconcile).
//  5. If it does not parse, restore the newest valid backup as the next
//     revision (restore), or report it corrupt.
func (t *txn) load() (*current, error) {
	var side sidecarState
	var err error
	if t.side != nil {
		side, t.side = *t.side, nil
	} else if side, err = t.s.readSidecar(t.dirs.meta, t.name); err != nil {
		return nil, err
	}
	cur := &current{side: side, meta: Meta{Name: t.name}}
	if !t.s.opts.Journal.Disabled {
		if t.journal, err = t.openJournal(); err != nil {
			return nil, err
		}
	}
	if data, info, ok := t.s.knownData(t.name, side.raw); ok && side.parsed != nil {
		// This Store committed these bytes and neither file changed since
		// (head.go): the sidecar's hash is theirs.
		cur.exists, cur.data, cur.perm, cur.sha = true, data, info.Mode().Perm(), side.parsed.SHA256
		cur.meta = side.parsed.meta()
		cur.stamp, cur.stamped = stampOf(info)
		return cur, t.discardAbove(side.parsed.Revision)
	}
	readAt := time.Now()
	data, info, err := t.s.readScene(t.name)
	if errors.Is(err, fs.ErrNotExist) {
		return cur, nil
	}
	if err != nil {
		return nil, err
	}
	cur.exists, cur.data, cur.perm, cur.sha = true, data, info.Mode().Perm(), sha256Hex(data)
	if st, ok := stampOf(info); ok && t.s.settled(st, readAt) {
		cur.stamp, cur.stamped = st, true
	}

	if sc := side.parsed; sc != nil && sc.SHA256 == cur.sha && sc.ByteLength == int64(len(data)) {
		cur.meta = sc.meta()
		return cur, t.discardAbove(sc.Revision)
	}
	count, perr := t.s.opts.Codec.Inspect(data)
	if perr != nil {
		return cur, t.restore(cur, perr)
	}
	if done, err := t.rollForward(cur, count); done || err != nil {
		return cur, err
	}
	return cur, t.reconcile(cur, count)
}

// rollForward completes commits that were interrupted after their file
// was renamed into place but before their sidecar's rename was durable:
// the journal's newest entries are of later revisions than the
// sidecar's, one after another from it, and the newest describes exactly
// the file's bytes. (A commit does not wait for its sidecar's rename to
// be durable, the journal entry being: see commit. After a power loss
// the sidecar may be one, rarely a few, revisions behind.) The sidecar
// is written from the newest entry, keeping its writer and the entries'
// request ids (a retry of them is then a duplicate), instead of
// recording the file as a change by recovery.
func (t *txn) rollForward(cur *current, count int) (bool, error) {
	if t.journal == nil || t.journal.last == nil {
		return false, nil
	}
	prev := cur.side.parsed
	if prev == nil {
		// A lost sidecar is the contract's recovery case, whatever the
		// journal says.
		return false, nil
	}
	e := t.journal.last.Entry
	if e.SHA256 != cur.sha || e.ByteLength != int64(len(cur.data)) || e.ElementCount != count {
		return false, nil
	}
	chain, ok := t.entriesAfter(prev.Revision, maxRollForward)
	if !ok {
		return false, nil
	}
	sc := &sidecar{
		Schema: SidecarSchema, Name: t.name, Revision: e.Revision, SHA256: e.SHA256,
		ByteLength: e.ByteLength, ElementCount: count, UpdatedAt: e.At, UpdatedBy: Actor(e.Actor),
		UpdatedByName: e.Name,
	}
	if !sc.UpdatedBy.Valid() {
		return false, nil
	}
	sc.PreviousRevision, sc.PreviousSHA256 = prev.Revision, prev.SHA256
	if n := len(chain); n > 1 {
		sc.PreviousRevision, sc.PreviousSHA256 = chain[n-2].Revision, chain[n-2].SHA256
	}
	sc.RecentRequests = prev.RecentRequests
	for _, c := range chain {
		if c.RequestID != "" {
			sc.RecentRequests = remember(sc.RecentRequests, requestRecord{ID: c.RequestID, Revision: c.Revision,
				SHA256: c.SHA256, ByteLength: c.ByteLength, ElementCount: c.ElementCount, At: c.At})
		}
	}
	raw := sc.encode()
	if err := t.s.writeAtomic(t.dirs.meta, sidecarFile(t.name), raw, 0o600, false); err != nil {
		return false, err
	}
	t.s.log.Warn("completed an interrupted commit from its journal entry", zap.String("name", t.name),
		zap.Int64("revision", sc.Revision), zap.String("commit", e.Commit), zap.Int("entries", len(chain)))
	cur.side = sidecarState{raw: raw, parsed: sc}
	cur.meta = sc.meta()
	return true, nil
}

// maxRollForward bounds how far behind its journal a sidecar is rolled
// forward; further behind, the file is recorded by recovery.
const maxRollForward = 64

// entriesAfter reads the journal's entries of the revisions after rev,
// oldest first, if they follow each other from rev (each the next
// revision, its previous revision the one before) and are at most max.
func (t *txn) entriesAfter(rev int64, max int) ([]journal.Entry, bool) {
	j := t.journal
	var chain []journal.Entry
	for f := j.last; f.Entry.Revision > rev; {
		if len(chain) == max {
			return nil, false
		}
		chain = append(chain, f.Entry)
		if f.Offset == 0 {
			break
		}
		var err error
		if f, err = journal.Last(j.f, f.Offset); err != nil {
			return nil, false
		}
	}
	slices.Reverse(chain)
	for i, c := range chain {
		want := rev
		if i > 0 {
			want = chain[i-1].Revision
		}
		if c.Revision != want+1 || c.PreviousRevision != want {
			return nil, false
		}
	}
	return chain, len(chain) > 0
}

// readScene is step 2 of load; its fs.ErrNotExist means the scene is absent.
func (s *Store) readScene(name string) ([]byte, fs.FileInfo, error) {
	file := sceneFile(name)
	info, err := s.fs.Lstat(s.root, file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		return nil, nil, fsError("stat scene "+name, err)
	}
	if err := s.checkSceneFile(name, info); err != nil {
		return nil, nil, err
	}
	data, info, err := s.fs.ReadFile(s.root, file, s.opts.MaxSceneBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		return nil, nil, fsError("read scene "+name, err)
	}
	if err := s.checkSceneFile(name, info); err != nil {
		return nil, nil, err
	}
	if size := max(info.Size(), int64(len(data))); size > s.opts.MaxSceneBytes {
		return nil, nil, s.tooLarge("scene "+name+" has", size)
	}
	return data, info, nil
}

// checkSceneFile refuses anything but a plain file with a single link. A hard
// link would let a file outside the drawings directory be read through it.
// The one second link allowed is the store's own: a backup of the scene,
// which a commit links to the file before replacing it (see linkBackup).
func (s *Store) checkSceneFile(name string, info fs.FileInfo) error {
	if info.Mode()&fs.ModeSymlink != 0 {
		return errorf(CodePermissionDenied, "scene %s is a symlink", name).with("name", name)
	}
	if !info.Mode().IsRegular() {
		return errorf(CodePermissionDenied, "scene %s is not a regular file", name).with("name", name)
	}
	if _, _, nlink, ok := fileID(info); ok && nlink > 1 && !(nlink == 2 && s.ownBackupLink(name, info)) {
		return errorf(CodePermissionDenied, "scene %s has other hard links", name).with("name", name)
	}
	return nil
}

// lastRevision is the newest revision the store knows was issued: the
// sidecar's, or if there is no usable sidecar, one past the newest backup
// (a backup of r exists only because r+1 was committed), or 0. Rebuilt
// records continue from it so revisions never go backwards or reuse a
// backup's number.
func (t *txn) lastRevision(side sidecarState) (int64, error) {
	if side.parsed != nil {
		return side.parsed.Revision, nil
	}
	entries, err := t.listBackups()
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	return entries[0].rev + 1, nil
}

// reconcile is step 4 of load: rebuild the sidecar for a valid scene file.
func (t *txn) reconcile(cur *current, count int) error {
	last, err := t.lastRevision(cur.side)
	if err != nil {
		return err
	}
	sc := &sidecar{
		Schema:       SidecarSchema,
		Name:         t.name,
		Revision:     last + 1,
		SHA256:       cur.sha,
		ByteLength:   int64(len(cur.data)),
		ElementCount: count,
		UpdatedAt:    formatTime(t.s.opts.Now()),
		UpdatedBy:    ActorRecovery,
	}
	reason := "sidecar missing"
	if prev := cur.side.parsed; prev != nil {
		reason = "sidecar stale (scene changed outside the store or a save was interrupted)"
		sc.PreviousRevision, sc.PreviousSHA256 = prev.Revision, prev.SHA256
		sc.RecentRequests = prev.RecentRequests
	} else if cur.side.problem != "" {
		reason = cur.side.problem
	}
	if err := t.journalRecovery(sc, cur.data, reason); err != nil {
		return err
	}
	raw := sc.encode()
	if err := t.s.writeAtomic(t.dirs.meta, sidecarFile(t.name), raw, 0o600, false); err != nil {
		return err
	}
	t.s.log.Warn("rebuilt scene sidecar", zap.String("name", t.name), zap.String("reason", reason),
		zap.Int64("revision", sc.Revision))
	cur.side = sidecarState{raw: raw, parsed: sc}
	cur.meta = sc.meta()
	return nil
}

// restore is step 5 of load: replace a corrupt scene file with its newest
// valid backup, committed as the next revision by "recovery" through the
// ordinary save path (so the corrupt bytes are kept as a .corrupt backup and
// the restored file is verified). Without a valid backup, cur is marked
// corrupt and the caller decides (only a forced save may overwrite it).
func (t *txn) restore(cur *current, perr error) error {
	last, err := t.lastRevision(cur.side)
	if err != nil {
		return err
	}
	if err := t.discardAbove(last); err != nil {
		return err
	}
	cur.corrupt = perr
	cur.meta.Revision = last
	cur.meta.SHA256 = cur.sha
	cur.meta.ByteLength = int64(len(cur.data))
	if sc := cur.side.parsed; sc != nil {
		cur.meta.UpdatedAt, cur.meta.UpdatedBy = sc.meta().UpdatedAt, sc.UpdatedBy
	}
	maxRev := int64(1<<63 - 1)
	if cur.side.parsed != nil {
		maxRev = cur.side.parsed.Revision
	}
	data, rev, count, ok, err := t.newestValidBackup(maxRev)
	if err != nil || !ok {
		t.s.log.Error("scene file is corrupt and no valid backup exists", zap.String("name", t.name), zap.Error(perr))
		return err
	}
	res, err := t.commit(cur, change{data: data, count: count, actor: ActorRecovery, revision: last + 1,
		attr: Attribution{Via: "recovery", Note: fmt.Sprintf("the file did not parse; restored the backup of revision %d", rev)}})
	if err != nil {
		return err
	}
	t.s.log.Warn("restored corrupt scene from backup", zap.String("name", t.name),
		zap.Int64("backupRevision", rev), zap.Int64("revision", res.Revision), zap.Error(perr))
	return nil
}

// journalRecovery appends the entry of a revision recovery records (a
// file changed outside dsh, or a lost sidecar): the previous bytes are
// gone, so it says what happened but has no before-images. Entries of
// revisions after the last recorded one are discarded first: their
// commits did not complete.
func (t *txn) journalRecovery(sc *sidecar, data []byte, reason string) error {
	if t.journal == nil {
		return nil
	}
	if err := t.discardAbove(sc.Revision - 1); err != nil {
		return err
	}
	now, _ := time.Parse(time.RFC3339Nano, sc.UpdatedAt)
	e := t.baseEntry(change{data: data, count: sc.ElementCount, actor: ActorRecovery, revision: sc.Revision,
		attr: Attribution{Via: "recovery", Note: reason}}, sc.SHA256, now)
	e.PreviousRevision = sc.PreviousRevision
	f, err := t.appendEntry(e, nil)
	if err != nil {
		return err
	}
	t.appended(f)
	return nil
}
