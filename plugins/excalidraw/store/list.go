package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
)

// List returns a summary of every scene, sorted by name. It ignores temp
// files, dotfiles, files without the .excalidraw extension and files whose
// name is not a valid scene name.
//
// List takes no locks and repairs nothing (Read does): a scene without a
// sidecar shows revision 0, a stale sidecar shows its last revision, and
// both say so in Problem. A file that cannot be used (symlink, corrupt, too
// large) is reported Valid=false, with the reason in Err, instead of
// failing the listing. A scene being saved at that instant may show as
// stale.
func (s *Store) List(ctx context.Context) ([]Summary, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	entries, err := s.fs.ReadDir(s.root)
	if err != nil {
		return nil, fsError("list drawings directory", err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e, ".") {
			continue
		}
		name, ok := strings.CutSuffix(e, sceneExt)
		if ok && ValidName(name) == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)

	meta, err := s.fs.OpenDir(s.root, metaDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		meta = nil
	case err != nil:
		return nil, fsError("open "+metaDir, err)
	default:
		defer meta.Close()
	}
	out := make([]Summary, 0, len(names))
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if sum, ok := s.summarize(meta, name); ok {
			out = append(out, sum)
		}
	}
	return out, nil
}

// summarize describes one scene; ok is false if it vanished meanwhile.
func (s *Store) summarize(meta *os.File, name string) (Summary, bool) {
	sum := Summary{Meta: Meta{Name: name}}
	var side sidecarState
	if meta != nil {
		var err error
		if side, err = s.readSidecar(meta, name); err != nil {
			side = sidecarState{problem: err.Error()}
		}
	}
	data, info, err := s.readScene(name)
	if errors.Is(err, fs.ErrNotExist) {
		return sum, false
	}
	if err != nil {
		sum.Problem, sum.Err = err.Error(), err
		return sum, true
	}
	sha := sha256Hex(data)
	if sc := side.parsed; sc != nil && sc.SHA256 == sha && sc.ByteLength == int64(len(data)) {
		sum.Meta, sum.Valid = sc.meta(), true
		return sum, true
	}
	if _, ok := s.creating.Load(name); ok && side.parsed == nil && side.problem == "" {
		// A create of this Store between its renames: not a scene yet
		// (the file without its sidecar would list as revision 0).
		return sum, false
	}
	sum.SHA256, sum.ByteLength, sum.UpdatedAt = sha, int64(len(data)), info.ModTime().UTC()
	switch {
	case side.parsed != nil:
		sum.Revision = side.parsed.Revision
		sum.Problem = "sidecar stale: scene changed since revision " + strconv.FormatInt(side.parsed.Revision, 10)
	case side.problem != "":
		sum.Problem = side.problem
	default:
		sum.Problem = "no sidecar: revision 0 until first read or write"
	}
	n, err := s.opts.Codec.Inspect(data)
	if err != nil {
		sum.Err = newError(CodeCorruptScene, "scene "+name+" does not parse", err).with("name", name)
		sum.Problem = sum.Err.Error()
		return sum, true
	}
	sum.ElementCount, sum.Valid = n, true
	return sum, true
}
