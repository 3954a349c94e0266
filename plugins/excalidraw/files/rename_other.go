//go:build unix && !linux

package files

// renameReport has no atomic no-replace rename off Linux.
func renameReport(fd int, oldName, newName string) (created bool, err error) {
	return renameOrReplace(fd, oldName, newName)
}
