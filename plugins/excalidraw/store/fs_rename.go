package store

import "golang.org/x/sys/unix"

// renameNoReplaceFallback refuses when newName exists (even as a dangling
// symlink) and otherwise renames. It is used where renameat2 and
// RENAME_NOREPLACE are unavailable; other store writers hold the lock, so
// only an external program creating the file in the same instant could slip
// through.
func renameNoReplaceFallback(fd int, oldName, newName string) error {
	var st unix.Stat_t
	err := unix.Fstatat(fd, newName, &st, unix.AT_SYMLINK_NOFOLLOW)
	if err == nil {
		return unix.EEXIST
	}
	if err != unix.ENOENT {
		return err
	}
	return unix.Renameat(fd, oldName, fd, newName)
}
