// Package boards stores and validates the metadata of Excalidraw boards
// (title, description, owner, members, folder, trash), which the access
// package turns into decisions about who may do what. The records are one
// JSON document: a file beside the scenes, or the "boards" document of a
// backend several nodes share (Options.State).
package boards

import (
	"context"
	"maps"
	"path/filepath"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"go.uber.org/zap"
)

// FileName is the metadata file's name inside the scene store's hidden
// directory.
const FileName = "boards.json"

// fileWhat names the file in errors and logs.
const fileWhat = "boards file"

// StateDoc is the boards' document in a shared backend (Options.State).
const StateDoc = "boards"

// File is where the boards of the scenes in drawingsDir are described:
// <drawingsDir>/.dsh-excalidraw/boards.json, beside the scenes' revision
// sidecars and never inside a .excalidraw file, so a scene stays a
// portable document.
func File(drawingsDir string) string {
	return filepath.Join(drawingsDir, store.MetaDir, FileName)
}

// Board is what is known about one scene beyond its drawing. A scene with
// no record is owned by the host's owner, has no members, no folder, and is
// shown by its name; [Store.Ensure] writes that default down.
type Board struct {
	// Name is the scene's name, the key of the record (a valid scene name).
	Name string `json:"name"`
	// Title is one line of at most 120 characters; "" means the board is
	// shown by its name.
	Title string `json:"title,omitempty"`
	// Description is one paragraph (no line breaks) of at most 300
	// characters.
	Description string `json:"description,omitempty"`
	// Owner is the owning person's id ("per_…"); "" is the host's owner,
	// as for boards that existed before accounts.
	Owner string `json:"owner"`
	// Members are the other people with a role on the board: person id →
	// identity.RoleEditor or identity.RoleViewer. The owner is never
	// listed. nil when there are none.
	Members map[string]string `json:"members,omitempty"`
	// Folder is the id of the one folder the board is filed in, or "".
	Folder string `json:"folder,omitempty"`
	// CreatedAt is when the record was made (for a scene that existed
	// before its record, that is later than the scene); UpdatedAt is the
	// last change to the record. Both are UTC.
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// CreatedBy names who created the board, a person or a bot, for
	// display only; it grants nothing.
	CreatedBy string `json:"createdBy,omitempty"`
	// TrashedAt is set while the board is in the trash; TrashedBy names who
	// put it there, for display.
	TrashedAt *time.Time `json:"trashedAt,omitempty"`
	TrashedBy string     `json:"trashedBy,omitempty"`
	// Profile is the board's own style contract (set_board_profile); its
	// folder's profile is under it, field by field (profile.Over).
	Profile profile.Profile `json:"profile,omitzero"`
}

// Folder groups one person's boards. It carries no access of its own:
// filing a board in a folder shares it with nobody.
type Folder struct {
	// ID is "fld_" and 12 random hexadecimal characters.
	ID string `json:"id"`
	// Name is one line of 1 to 80 characters, unique per owner ignoring
	// case.
	Name string `json:"name"`
	// Owner is the person id the folder belongs to.
	Owner     string    `json:"owner"`
	CreatedAt time.Time `json:"createdAt"`
	// Profile is the style contract of the boards filed in the folder,
	// under each board's own; nil for none. (A pointer keeps Folder
	// comparable.)
	Profile *profile.Profile `json:"profile,omitempty"`
}

// clone is b with its own Members map, TrashedAt and Profile, so a
// caller cannot change the store's cached index through it.
func (b Board) clone() Board {
	b.Members = maps.Clone(b.Members)
	b.Profile = b.Profile.Clone()
	if b.TrashedAt != nil {
		t := *b.TrashedAt
		b.TrashedAt = &t
	}
	return b
}

// clone is f with a Profile of its own.
func (f Folder) clone() Folder {
	if f.Profile != nil {
		p := f.Profile.Clone()
		f.Profile = &p
	}
	return f
}

// Options configure a Store; the zero value is ready to use.
type Options struct {
	// Now is the clock that stamps records (time.Now if nil).
	Now func() time.Time
	// Logger receives the file's load and change events (none if nil).
	Logger *zap.Logger
	// State, when set, keeps the records in its StateDoc document instead
	// of the file (Open's path is then not used): with a backend several
	// nodes share (pgstate's), every node sees every change at its next
	// lookup, and changes are serialised across the nodes.
	State statefile.Backend
}

// Store keeps the board records of one drawings directory in one private
// JSON document: a file (see [File]) or a shared backend's StateDoc. Every
// change is a read-modify-write of the document under its lock (for a
// file a cross-process lock, the file written atomically and private to
// the user, 0600; in PostgreSQL a row lock), so the running host and a
// `dsh` command, or two nodes, never lose each other's changes. Reads come
// from a cached index that is parsed once per change of the document,
// whoever made it, so the lookup on every request is a stat (a one-row
// version read) and a map access.
//
// A missing document is an empty store and is created by the first
// change. One that does not parse, or that contradicts itself (two
// records for one name, a role that is not editor or viewer, a board in a
// folder that does not exist), is an error on every call and is never
// overwritten: access decisions fail closed until someone repairs or
// removes it. So does a database that cannot be reached.
//
// Every method that reads or writes the document takes the caller's
// context, which bounds the read or write (a database query; a file
// ignores it).
//
// All methods are safe for concurrent use. Errors about the input are
// *sceneerr.Error values (invalid_name, invalid_operation, not_found,
// already_exists); errors about the file are plain errors.
type Store struct {
	doc  statefile.Doc
	now  func() time.Time
	log  *zap.Logger
	view *statefile.View[*index]
}

// Open returns the store whose file is path (usually File(drawingsDir)),
// or with opts.State the one in that backend's StateDoc (path is then not
// used). Nothing is read or created until it is used.
func Open(path string, opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	d := statefile.File(path, fileWhat)
	if opts.State != nil {
		d = opts.State.Doc(StateDoc)
	}
	return &Store{
		doc:  d,
		now:  opts.Now,
		log:  opts.Logger,
		view: statefile.ViewOf(d, parseIndex, opts.Logger),
	}
}

// Path is where the store keeps its records: the file's path, or the
// shared document's place.
func (s *Store) Path() string { return s.doc.Where() }

// Get returns the record of the board name; ok is false when it has none
// (an invalid name never has one). The Board is a copy the caller may
// change freely.
func (s *Store) Get(ctx context.Context, name string) (b Board, ok bool, err error) {
	idx, err := s.view.Load(ctx)
	if err != nil || idx == nil {
		return Board{}, false, err
	}
	i, ok := idx.boardByName[name]
	if !ok {
		return Board{}, false, nil
	}
	return idx.file.Boards[i].clone(), true, nil
}

// List returns every board record, sorted by name.
func (s *Store) List(ctx context.Context) ([]Board, error) {
	idx, err := s.view.Load(ctx)
	if err != nil {
		return nil, err
	}
	out := []Board{}
	if idx == nil {
		return out, nil
	}
	out = make([]Board, len(idx.file.Boards))
	for i, b := range idx.file.Boards {
		out[i] = b.clone()
	}
	return out, nil
}

// Folders returns the folders of owner ("": everyone's), sorted by owner,
// then name ignoring case.
func (s *Store) Folders(ctx context.Context, owner string) ([]Folder, error) {
	idx, err := s.view.Load(ctx)
	if err != nil {
		return nil, err
	}
	out := []Folder{}
	if idx == nil {
		return out, nil
	}
	for _, f := range idx.file.Folders {
		if owner == "" || f.Owner == owner {
			out = append(out, f.clone())
		}
	}
	return out, nil
}

// Folder returns the folder with this id; ok is false when there is none.
func (s *Store) Folder(ctx context.Context, id string) (f Folder, ok bool, err error) {
	idx, err := s.view.Load(ctx)
	if err != nil || idx == nil {
		return Folder{}, false, err
	}
	i, ok := idx.folderByID[id]
	if !ok {
		return Folder{}, false, nil
	}
	return idx.file.Folders[i].clone(), true, nil
}
