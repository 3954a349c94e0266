//go:build unix && !linux

package store

// renameNoReplace has no atomic primitive off Linux: see the fallback.
func renameNoReplace(fd int, oldName, newName string) error {
	return renameNoReplaceFallback(fd, oldName, newName)
}
