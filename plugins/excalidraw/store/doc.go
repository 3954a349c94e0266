// Package store is the revisioned file store of the Excalidraw plugin: it
// keeps drawings as plain .excalidraw files in one directory and gives every
// write a revision, a backup, an attribution and proof that it landed.
//
// It knows nothing of HTTP, MCP or the scene model; a Codec is injected to
// parse documents and count their elements.
//
// # Layout
//
//	<drawingsDir>/
//	  <name>.excalidraw                    the portable document
//	  .dsh-excalidraw/
//	    <name>.meta.json                   revision sidecar (dsh-excalidraw/revision@1)
//	    backups/<name>.<revision>.excalidraw
//	    locks/<name>.lock                  cross-process write lock
//	    journal/<name>.journal             the commit journal (history)
//
// The scene file stays a document any Excalidraw can open; revision data
// lives beside it, so files can be copied in and out by hand. A file with no
// sidecar reads as revision 0 in List and gets a sidecar at its first write,
// or its first Read while nobody else holds its lock.
//
// # Writes
//
// A write (Create, Save, Update) is reported successful only after: it ran
// under the per-name queue and the lock file; the expected revision matched
// (unless Force); the previous bytes were copied to backups/; the new bytes
// were written to a temp file, fsynced, renamed over the target and the
// directory fsynced (best effort); the sidecar was written the same way; and
// the target was read back, parsed, and its element count and SHA-256
// compared. If the sidecar write or the verification fails, the previous bytes
// and sidecar are put back and the call fails with io_error. See commit.go.
//
// A write whose bytes are the current file's writes nothing at all (no
// revision, backup or sidecar change; the mtime stays) and reports the
// current revision with Unchanged; a Save of such bytes is no conflict
// even on a stale base, since nothing can be lost.
//
// Request ids make retries safe: the last 32 per scene are remembered in the
// sidecar, and a repeat returns the original commit with Duplicate set,
// before the revision fence is checked.
//
// A stale expected revision is refused from the sidecar alone, before the
// scene file is read and hashed, when the sidecar is valid and the file
// still has its length (refuseEarly): losing a race costs one small read.
// That check needs no lock, so it is made before the write queues for the
// scene, again (from memory) each time a commit of the scene in this
// process lands while it waits, and once more under the locks: writers
// that lost a race never wait in line to be told.
//
// Concurrent commits of different scenes share directory fsyncs where one
// proves as much as each would have alone (dirsync.go).
//
// Every commit also appends an entry to the scene's journal
// (journal/<name>.journal: who, through what, the note, the elements it
// changed and their before-images; format in package journal), durably
// and before the rename; see journal.go and docs/journal.md.
//
// # Reads
//
// Read takes no lock, so no writer, however slow, stuck or dead, makes a
// reader wait (read.go). It reads the sidecar, then the scene file, and
// returns them when the file's SHA-256 and length are the sidecar's; since
// both are replaced whole by rename, the scene file first, such a pair is
// always one revision with exactly its bytes, and a commit landing in
// between only shows as a disagreement (see Read for the one window commit
// leaves). A disagreement is read again at once if the sidecar moved
// meanwhile; otherwise the read repairs it under the lock if the lock is
// free (the recovery below: this is the only time a read writes); if the
// lock is held, it backs off for about 30 ms and then answers from disk
// without waiting longer: with the backup of the sidecar's revision when
// that backup has the sidecar's hash (a writer between its two renames: the
// last committed revision, whole), else corrupt_scene for a file that does
// not parse, else the file with the sidecar's revision and the file's own
// hash (see readHeld). List takes no lock either and repairs nothing.
//
// Head is Read's record without the content. While the sidecar still has
// the bytes and the scene file the identity (inode, size, mtime, ctime)
// they had when this Store last saw them agree, it answers from that,
// for the cost of reading the sidecar and an lstat (head.go).
//
// # Recovery
//
// Inside the lock, each write (and a read that repairs, see above) first
// reconciles (state.go): a leftover temp file is never a scene; a valid
// scene file whose sidecar is missing, stale or corrupt is authoritative and
// gets a rebuilt sidecar at the next revision by "recovery"; a corrupt scene
// file is replaced by its newest valid backup, also as a new revision by
// "recovery", and without one it is corrupt_scene.
//
// # Locking
//
// See lock.go: an O_EXCL lock file holding pid, host, time and process
// identity, guarded by flock(2) for as long as it is held. A lock file
// whose flock anyone else can take has no live holder and is reclaimed at
// once, whether or not its creator lived to write its record (a creator
// still alive before its flock notices and starts over); one whose flock is
// held is live and never robbed, and a write waiting for it fails with
// scene_busy after LockTimeout. Where flock is not supported, a holder on
// this host is dead once its pid is gone or reused (told apart by the
// process's start time); the 30 s mtime rule (StaleLockAge) is only for
// holders nothing can be proven about: another host, another boot or pid
// namespace, an empty or unreadable record.
//
// # Deviations from the persistence contract
//
// Section 3.5 says a lock file left by a dead process is stale after 30 s
// and a live lock times out with scene_busy. Here a holder proven dead (as
// above) is reclaimed at once and the 30 s rule remains only for holders
// that cannot be checked; and a live lock makes only writes wait and time
// out, never reads (Read and List), which do not take it. One consequence:
// while another process holds the lock, a read of a scene file that was
// changed outside the store reports that file with its own hash at the
// last recorded revision, unrecorded (Revision equals PreviousRevision),
// rather than waiting to record it as the next revision; the next locked
// operation records it. And since commit reads its file back after
// renaming the sidecar, a read between the two can return a revision whose
// write then fails its read-back and is rolled back (only on an I/O or
// codec fault); a locked read could not.
//
// # Path discipline
//
// Names match ^[a-z0-9][a-z0-9._-]{0,63}$ without "..", so a name is always
// one harmless path component. The drawings directory is opened once with
// O_DIRECTORY|O_NOFOLLOW and every file is then opened relative to that
// handle (openat) with O_NOFOLLOW, and checked with fstat after opening: a
// symlink in place of the root, a metadata directory, a scene or a sidecar is
// permission_denied, including one swapped in between a check and a use.
// Replacing files is always by rename within their directory, which replaces
// a symlink rather than following it. Nothing outside the directory is
// touched. The implementation is for Unix (it uses golang.org/x/sys/unix).
package store
