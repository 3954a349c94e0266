package store

import "time"

// Actor attributes every write: the revision history must say who changed a
// scene, and "recovery" marks changes the store made on its own (reconciling
// a stale sidecar, restoring a backup). It is the kind of writer; the
// writer's name, where known, is in Attribution.
type Actor string

// The actors.
const (
	ActorAgent    Actor = "agent"
	ActorUI       Actor = "ui"
	ActorRecovery Actor = "recovery"
	// ActorSystem is dsh itself acting for nobody in particular (a
	// command-line tool, a migration).
	ActorSystem Actor = "system"
)

// Valid reports whether a is one of the known actors.
func (a Actor) Valid() bool {
	return a == ActorAgent || a == ActorUI || a == ActorRecovery || a == ActorSystem
}

// Attribution is what a write says about itself beyond its actor: it is
// kept in the scene's journal entry, and Name also in the sidecar
// (updatedByName). All of it is optional.
type Attribution struct {
	// Name is who wrote, as people read it: the credential's author name
	// (identity.Principal.Author: "claude (for erin)", "erin", a host
	// token's name).
	Name string
	// Bot is the connect token's name when a bot wrote; Person the person
	// it acts for, or who saved in the editor; PersonID that person's id,
	// the same across their sessions and bots (a page tells "you" by it).
	Bot, Person, PersonID string
	// Client is the name an agent's MCP client gave itself
	// ("claude-desktop"): a detail, never the writer's name.
	Client string
	// Via is the tool or route that wrote ("batch_create", "PUT scene").
	Via string
	// Note is the writer's note on the change.
	Note string
	// Undoes and Mode mark a restore or revert: the commit it put back
	// and which of the two it was.
	Undoes, Mode string
	// AccessID is the id of the request that wrote (the request_id its
	// access line shows), not an idempotency key.
	AccessID string
}

// Attribution bounds.
const (
	maxAttrName = 128
	maxAttrVia  = 64
	maxAttrNote = 2000
)

// Meta is a scene's revision record, as kept in its sidecar.
type Meta struct {
	Name         string
	Revision     int64
	SHA256       string
	ByteLength   int64
	ElementCount int
	UpdatedAt    time.Time
	UpdatedBy    Actor
	// UpdatedByName is the writer's name where known (Attribution.Name).
	UpdatedByName    string
	PreviousRevision int64
	PreviousSHA256   string
}

// Scene is a document with its revision record.
type Scene struct {
	Meta
	Data []byte
}

// Summary is one row of List. Files that cannot be used are reported with
// Valid=false and Err rather than failing the whole listing, so one bad file
// never hides the others.
type Summary struct {
	Meta
	Valid bool
	// Problem is a note for logs: why the file is invalid, or, on a valid
	// row, that its sidecar is missing or stale (its revision is then not
	// the one the next read records).
	Problem string
	// Err is why the file cannot be used, nil when Valid: the store's
	// *Error for a file it refuses to read (permission_denied for a
	// symlink, a hard link or a non-regular file; too_large; io_error), or
	// a corrupt_scene *Error wrapping the codec's complaint about bytes
	// that do not parse. It is there for callers to say in their own words
	// what is wrong (a listing's tooltip), from its code and details.
	Err error
}

// Result is the evidence of a committed write: the new revision record,
// when it was saved, that it was read back and verified, and whether this was
// a repeat of an already committed request (Duplicate). A write of the bytes
// the scene already holds commits nothing and says so (Unchanged): its
// evidence is the current revision's, SavedAt when that was saved.
type Result struct {
	Meta
	// Commit is the id of the commit that wrote this revision (its
	// journal entry's Commit, a ULID): what a trace or a log line names
	// to find the entry. It is empty where no commit was made (Unchanged),
	// where the store keeps no journal, and for a Duplicate whose commit
	// the store does not know without reading its journal further (the
	// file store knows it only while that commit is the scene's newest
	// entry; PostgreSQL while the journal keeps it).
	Commit    string
	SavedAt   time.Time
	Verified  bool
	Duplicate bool
	Unchanged bool
}
