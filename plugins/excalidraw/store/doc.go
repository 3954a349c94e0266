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
//
// The scene file stays a document any Excalidraw can open; revision data
// lives beside it, so files can be copied in and out by hand. A file with no
// sidecar reads as revision 0 in List and gets a sidecar at its first Read or
// write.
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
// # Recovery
//
// Inside the lock, each operation first reconciles (state.go): a leftover
// temp file is never a scene; a valid scene file whose sidecar is missing,
// stale or corrupt is authoritative and gets a rebuilt sidecar at the next
// revision by "recovery"; a corrupt scene file is replaced by its newest
// valid backup, also as a new revision by "recovery", and without one it is
// corrupt_scene.
//
// # Locking
//
// See lock.go: an O_EXCL lock file holding pid, host and time, guarded by
// flock(2) so that a dead holder is detected at once and a live one is never
// robbed; the 30 s mtime rule reclaims what flock cannot judge.
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
