package store

import (
	"path/filepath"
	"strconv"
	"strings"
)

// maxNameLen is the longest scene name: one leading character plus up to 63.
const maxNameLen = 64

// File name parts. A scene name plus one of these is always a single path
// component, because names cannot contain '/' (see ValidName).
const (
	sceneExt   = ".excalidraw"
	sidecarExt = ".meta.json"
	lockExt    = ".lock"
	journalExt = ".journal"
	corruptExt = ".corrupt"
	metaDir    = ".dsh-excalidraw"
	backupsDir = "backups"
	locksDir   = "locks"
	journalDir = "journal"
)

// MetaDir and SidecarExt tell watchers where commits become visible: each
// commit replaces <dir>/MetaDir/<name>SidecarExt by rename, after the scene
// file (see live.Watch).
const (
	MetaDir    = metaDir
	SidecarExt = sidecarExt
)

// ValidName reports whether name may be used as a scene name; the error is an
// *Error with code invalid_name.
//
// The rule is ^[a-z0-9](?:[a-z0-9._-]{0,63})$ and no "..". It is checked by
// hand rather than with a regexp so that it is cheap and obviously free of
// surprises (no Unicode classes, no case folding): a name that passes is one
// path component of safe ASCII that cannot be ".", "..", hidden, or start
// with '-' (which tools would read as a flag).
func ValidName(name string) error {
	if name == "" {
		return errorf(CodeInvalidName, "scene name is empty")
	}
	if len(name) > maxNameLen {
		return errorf(CodeInvalidName, "scene name is longer than %d bytes", maxNameLen).with("name", name)
	}
	if !isLowerAlnum(name[0]) {
		return errorf(CodeInvalidName, "scene name must start with a-z or 0-9").with("name", name)
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !isLowerAlnum(c) && c != '.' && c != '_' && c != '-' {
			return errorf(CodeInvalidName, "scene name may only contain a-z, 0-9, '.', '_' and '-'").with("name", name)
		}
	}
	if strings.Contains(name, "..") {
		return errorf(CodeInvalidName, `scene name must not contain ".."`).with("name", name)
	}
	return nil
}

func isLowerAlnum(c byte) bool { return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') }

// ScenePath returns <dir>/<name>.excalidraw for a valid name. It exists so
// callers (and the fuzz test) can see where a name lands; the store itself
// never opens scenes by this path, only relative to its directory handle.
func ScenePath(dir, name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	return filepath.Join(filepath.Clean(dir), sceneFile(name)), nil
}

func sceneFile(name string) string   { return name + sceneExt }
func sidecarFile(name string) string { return name + sidecarExt }
func lockFile(name string) string    { return name + lockExt }
func journalFile(name string) string { return name + journalExt }

// backupFile names the copy of revision rev. Copies of bytes that did not
// parse get the .corrupt extension so that recovery never picks them.
func backupFile(name string, rev int64, valid bool) string {
	ext := sceneExt
	if !valid {
		ext = corruptExt
	}
	return name + "." + strconv.FormatInt(rev, 10) + ext
}

// parseBackup is the inverse of backupFile for one scene name. Requiring the
// middle part to be all digits keeps scene "a" from claiming the backups of
// scene "a.5" ("a.5.3.excalidraw").
func parseBackup(name, entry string) (rev int64, valid, ok bool) {
	rest, found := strings.CutPrefix(entry, name+".")
	if !found {
		return 0, false, false
	}
	digits, found := strings.CutSuffix(rest, sceneExt)
	valid = found
	if !found {
		if digits, found = strings.CutSuffix(rest, corruptExt); !found {
			return 0, false, false
		}
	}
	if digits == "" || len(digits) > 18 || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false, false
	}
	rev, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false, false
	}
	return rev, valid, true
}
