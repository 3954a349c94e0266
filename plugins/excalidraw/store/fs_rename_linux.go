package store

import "golang.org/x/sys/unix"

// renameNoReplace uses renameat2(RENAME_NOREPLACE), so Create can never
// clobber a file that appeared after its existence check. Filesystems that do
// not support the flag get the check-then-rename fallback.
func renameNoReplace(fd int, oldName, newName string) error {
	err := unix.Renameat2(fd, oldName, fd, newName, unix.RENAME_NOREPLACE)
	if err != unix.EINVAL && err != unix.ENOSYS {
		return err
	}
	return renameNoReplaceFallback(fd, oldName, newName)
}
