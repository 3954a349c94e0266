package boards

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// boardsFile is the file's shape: an object, so fields can be added
// without breaking older readers. Boards are kept sorted by name and
// folders by owner, then name ignoring case, then id.
type boardsFile struct {
	Boards  []Board  `json:"boards"`
	Folders []Folder `json:"folders"`
}

// index is a parsed file with its records by key, for the per-request
// lookups. It is shared by every reader of the view and never changed.
type index struct {
	file        boardsFile
	boardByName map[string]int
	folderByID  map[string]int
}

func parseIndex(path string, data []byte) (*index, error) {
	f, err := parseFile(path, data)
	if err != nil {
		return nil, err
	}
	idx := &index{
		file:        f,
		boardByName: make(map[string]int, len(f.Boards)),
		folderByID:  make(map[string]int, len(f.Folders)),
	}
	for i, b := range f.Boards {
		idx.boardByName[b.Name] = i
	}
	for i, fo := range f.Folders {
		idx.folderByID[fo.ID] = i
	}
	return idx, nil
}

// parseFile parses and checks the file. It refuses what would make the
// metadata ambiguous to an access decision; a title that is too long, say,
// is left for whoever edited the file by hand to see.
func parseFile(path string, data []byte) (boardsFile, error) {
	var f boardsFile
	if len(bytes.TrimSpace(data)) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return boardsFile{}, fmt.Errorf("boards: parse %s %s: %w", fileWhat, path, err)
	}
	bad := func(format string, args ...any) (boardsFile, error) {
		return boardsFile{}, fmt.Errorf("boards: %s %s: %s", fileWhat, path, fmt.Sprintf(format, args...))
	}
	folders := make(map[string]bool, len(f.Folders))
	for _, fo := range f.Folders {
		if fo.ID == "" {
			return bad("a folder has no id")
		}
		if folders[fo.ID] {
			return bad("two folders have the id %q", fo.ID)
		}
		folders[fo.ID] = true
	}
	names := make(map[string]bool, len(f.Boards))
	for _, b := range f.Boards {
		if err := store.ValidName(b.Name); err != nil {
			return bad("board %q: %v", b.Name, err)
		}
		if names[b.Name] {
			return bad("two records for board %q", b.Name)
		}
		names[b.Name] = true
		for id, role := range b.Members {
			if id == "" {
				return bad("board %q has a member with no person id", b.Name)
			}
			if id == b.Owner {
				return bad("board %q lists its owner %q among its members", b.Name, id)
			}
			if err := CheckRole(role); err != nil {
				return bad("board %q, member %q: %v", b.Name, id, err)
			}
		}
		if b.Folder != "" && !folders[b.Folder] {
			return bad("board %q is in folder %q, which does not exist", b.Name, b.Folder)
		}
	}
	f.sort()
	return f, nil
}

func (f *boardsFile) sort() {
	slices.SortFunc(f.Boards, func(a, b Board) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(f.Folders, func(a, b Folder) int {
		return cmp.Or(
			strings.Compare(a.Owner, b.Owner),
			strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)),
			strings.Compare(a.ID, b.ID),
		)
	})
}

// findBoard is where name's record is, or would be inserted, in the
// sorted boards.
func (f *boardsFile) findBoard(name string) (int, bool) {
	return slices.BinarySearchFunc(f.Boards, name, func(b Board, n string) int { return strings.Compare(b.Name, n) })
}

func (f *boardsFile) findFolder(id string) int {
	return slices.IndexFunc(f.Folders, func(fo Folder) bool { return fo.ID == id })
}
