package files

import "golang.org/x/sys/unix"

// renameReport tries renameat2(RENAME_NOREPLACE) first, so that of two
// first writes racing exactly one reports created; EEXIST means there is
// a file to replace. Filesystems without the flag get the portable way.
func renameReport(fd int, oldName, newName string) (created bool, err error) {
	err = unix.Renameat2(fd, oldName, fd, newName, unix.RENAME_NOREPLACE)
	switch err {
	case nil:
		return true, nil
	case unix.EEXIST:
		return false, unix.Renameat(fd, oldName, fd, newName)
	case unix.EINVAL, unix.ENOSYS:
		return renameOrReplace(fd, oldName, newName)
	}
	return false, err
}
