package service

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// How many ids of each kind a log row lists with IDs "some".
const logIDsShown = 10

// Log id listings.
const (
	LogIDsSome = "some" // the default: up to logIDsShown per kind, and how many more
	LogIDsAll  = "all"
	LogIDsNone = "none"
)

// LogRequest is board_log's input: a page of a scene's history, newest
// first, optionally filtered.
type LogRequest struct {
	Name   string
	Cursor string
	// Actor is a kind (agent, ui, recovery, system) or a name.
	Actor string
	// Element keeps the commits that changed this element.
	Element string
	// Since and Until bound the time (RFC 3339).
	Since, Until string
	// MinRevision and MaxRevision bound the revision (0: open).
	MinRevision, MaxRevision int64
	Limit                    int
	// IDs is LogIDsSome (default), LogIDsAll or LogIDsNone.
	IDs string
}

// LogResult is one page of a scene's history.
type LogResult struct {
	Name string `json:"name"`
	// Revision is the scene's revision the page was read at.
	Revision int64    `json:"revision"`
	Entries  []LogRow `json:"entries"`
	// Next continues with older entries; absent at the end.
	Next string `json:"next,omitempty"`
}

// LogRow is one commit, compactly: who, through what, why, and what it
// changed.
type LogRow struct {
	Commit   string `json:"commit"`
	Revision int64  `json:"revision"`
	At       string `json:"at"`
	Actor    string `json:"actor"`
	// Name is who wrote it, named by their credential: "claude (for
	// erin)" for a connect token, the person's name for what they saved,
	// a host token's name.
	Name string `json:"name,omitempty"`
	// Bot is the connect token's name; Person the person it acts for, or
	// who saved; PersonID that person's id (a page compares it with GET
	// /me's personId to say "you").
	Bot      string `json:"bot,omitempty"`
	Person   string `json:"person,omitempty"`
	PersonID string `json:"personId,omitempty"`
	// Client is the name the agent's MCP client gave itself: a detail,
	// never the writer's name.
	Client string `json:"client,omitempty"`
	Via    string `json:"via,omitempty"`
	Note   string `json:"note,omitempty"`
	// Summary says it in words: "created 12, moved 3".
	Summary string `json:"summary"`
	// IDs are the ids it changed (IDs "some": the first of each kind) and
	// the document's other members it changed (appState, files).
	journal.IDs
	// More counts the ids left out of the lists (IDs "some").
	More   int    `json:"more,omitempty"`
	Forced bool   `json:"forced,omitempty"`
	Undoes string `json:"undoes,omitempty"`
	Mode   string `json:"mode,omitempty"`
	// Restorable is false when the commit kept no before-images
	// (Images says why: skipped, unavailable).
	Restorable bool   `json:"restorable"`
	Images     string `json:"images,omitempty"`
	RequestID  string `json:"requestId,omitempty"`
}

// Log reads a page of a scene's journal.
func (s *Service) Log(ctx context.Context, r LogRequest) (*LogResult, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	q := store.LogQuery{Name: r.Name, Cursor: r.Cursor, Actor: r.Actor, Element: r.Element,
		MinRevision: r.MinRevision, MaxRevision: r.MaxRevision, Limit: r.Limit}
	var err error
	if q.Since, err = logTime("/since", r.Since); err != nil {
		return nil, err
	}
	if q.Until, err = logTime("/until", r.Until); err != nil {
		return nil, err
	}
	switch r.IDs {
	case "", LogIDsSome, LogIDsAll, LogIDsNone:
	default:
		return nil, opError("/ids", "ids must be %q, %q or %q, not %q", LogIDsSome, LogIDsAll, LogIDsNone, r.IDs)
	}
	if r.MinRevision < 0 || r.MaxRevision < 0 {
		return nil, opError("/min_revision", "revisions are positive")
	}
	page, err := s.store.Log(ctx, q)
	if err != nil {
		return nil, mapError(err)
	}
	out := &LogResult{Name: r.Name, Revision: page.Revision, Entries: make([]LogRow, 0, len(page.Entries)), Next: page.Next}
	for i := range page.Entries {
		out.Entries = append(out.Entries, logRow(&page.Entries[i], r.IDs))
	}
	return out, nil
}

func logTime(pointer, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, opError(pointer, "%s is not an RFC 3339 time (2026-12-01T12:00:00Z)", strings.TrimPrefix(pointer, "/"))
	}
	return t, nil
}

// logRow renders an entry.
func logRow(e *journal.Entry, ids string) LogRow {
	row := LogRow{Commit: e.Commit, Revision: e.Revision, At: e.At, Actor: e.Actor, Name: e.Name, Bot: e.Bot, Person: e.Person,
		PersonID: e.PersonID, Client: e.Client, Via: e.Via,
		Note: e.Note, Summary: Summarize(e), Forced: e.Forced, Undoes: e.Undoes, Mode: e.Mode,
		Restorable: e.Images == journal.ImagesStored, RequestID: e.RequestID, IDs: journal.IDs{Members: e.Members, Settings: e.Settings}}
	if e.Images != journal.ImagesStored {
		row.Images = e.Images
	}
	if ids == LogIDsNone {
		return row
	}
	take := func(l []string) []string {
		if ids == LogIDsAll || len(l) <= logIDsShown {
			return l
		}
		row.More += len(l) - logIDsShown
		return l[:logIDsShown]
	}
	row.Created, row.Updated, row.Moved = take(e.Created), take(e.Updated), take(e.Moved)
	row.Deleted, row.Revived = take(e.Deleted), take(e.Revived)
	return row
}

// Summarize says what a commit changed in words: "created 12, moved 3,
// changed 2, deleted 1" (changed: updated other than by moving), "changed
// the board's settings and images" (the document's appState and files),
// "nothing changed".
func Summarize(e *journal.Entry) string {
	var parts []string
	add := func(verb string, n int) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", verb, n))
		}
	}
	add("created", len(e.Created))
	add("moved", len(e.Moved))
	add("changed", len(e.Updated)-len(e.Moved))
	add("deleted", len(e.Deleted))
	add("revived", len(e.Revived))
	if len(e.Members) > 0 {
		var words []string
		for _, m := range e.Members {
			if m == "appState" {
				words = appendNew(words, settingsWords(e.Settings)...)
			} else {
				words = appendNew(words, memberWords(m))
			}
		}
		parts = append(parts, "changed "+sentence(words))
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, ", ")
	case e.Images == journal.ImagesUnavailable:
		return "changed the board (what changed was not recorded)"
	default:
		return "nothing changed"
	}
}

// memberWords says what a document member is: appState the board's
// settings (its background, grid...), files its images.
func memberWords(m string) string {
	switch m {
	case "appState":
		return "the board's settings"
	case "files":
		return "images"
	}
	return "the board's " + m
}

// settingsWords says what a commit changed of the board's settings (the
// appState members in settings): "the background", "the grid", then
// "the board's settings" for the others (alone when the entry does not
// say which).
func settingsWords(settings []string) []string {
	var background, grid, other bool
	for _, k := range settings {
		switch k {
		case "viewBackgroundColor":
			background = true
		case "gridSize", "gridStep", "gridModeEnabled":
			grid = true
		default:
			other = true
		}
	}
	var out []string
	if background {
		out = append(out, "the background")
	}
	if grid {
		out = append(out, "the grid")
	}
	if other || len(out) == 0 {
		out = append(out, "the board's settings")
	}
	return out
}

// sentence joins words as a sentence does: "a", "a and b", "a, b and c".
func sentence(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// appendNew appends the words not in l yet.
func appendNew(l []string, words ...string) []string {
	for _, w := range words {
		if !slices.Contains(l, w) {
			l = append(l, w)
		}
	}
	return l
}

// Restore modes.
const (
	// ModeRevert undoes only the commit's own changes: an element a later
	// commit changed again is left as it is and reported as collateral.
	ModeRevert = "revert"
	// ModeRestore puts the commit's elements back as they were before it,
	// whatever happened to them since.
	ModeRestore = "restore"
)

// RestoreRequest puts a commit's elements back (restore) or undoes it
// (revert), as one engine write.
type RestoreRequest struct {
	Name string
	// From is the commit id (board_log's commit).
	From string
	// Mode is ModeRevert (default) or ModeRestore.
	Mode string
	// IDs limits it to these of the commit's elements.
	IDs              []string
	ExpectedRevision *int64
	RequestID        string
	Options          WriteOptions
	Actor            store.Actor
	Attribution      store.Attribution
}

// Restore runs a restore or revert of one commit through Write (so it has
// the envelope, lint and dryRun, and is journaled itself: a revert can be
// reverted). The commit's before-images are read first, outside the lock
// (a journal entry never changes); under the lock each element is put
// back with a version above its current one, so open editors take it.
// For a revert, an element whose state is no longer the one the commit
// left (its fingerprint differs, or it was removed) is not touched and is
// listed in the envelope's collateral.
func (s *Service) Restore(ctx context.Context, r RestoreRequest) (*Envelope, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	switch r.Mode {
	case "":
		r.Mode = ModeRevert
	case ModeRevert, ModeRestore:
	default:
		return nil, opError("/mode", "mode must be %q or %q, not %q", ModeRevert, ModeRestore, r.Mode)
	}
	if r.From == "" {
		return nil, opError("/from", "from is the commit id to restore from (board_log's commit)")
	}
	entry, images, err := s.store.Commit(ctx, r.Name, r.From)
	if err != nil {
		if store.CodeOf(err) == store.CodeNotFound {
			return nil, sceneerr.New(sceneerr.NotFound, "commit %q is not in the history of %s", r.From, r.Name).
				With("pointer", "/from").With("commit", r.From)
		}
		return nil, mapError(err)
	}
	if entry.Images != journal.ImagesStored || images == nil {
		why := "its before-images were over the size cap"
		if entry.Images == journal.ImagesUnavailable {
			why = "the file was changed outside dsh, so there was nothing to compare with"
		}
		return nil, opError("/from", "commit %s kept no before-images (%s); restore from an earlier commit", r.From, why).
			With("images", entry.Images)
	}
	ids := entry.Affected()
	if len(r.IDs) > 0 {
		for i, id := range r.IDs {
			if !entry.Touches(id) {
				return nil, opError(fmt.Sprintf("/ids/%d", i), "commit %s did not change element %q", r.From, id).With("id", id)
			}
		}
		ids = r.IDs
	}
	attr := r.Attribution
	attr.Undoes, attr.Mode = r.From, r.Mode
	if attr.Via == "" {
		attr.Via = "restore"
	}
	wr := WriteRequest{Name: r.Name, ExpectedRevision: r.ExpectedRevision, RequestID: r.RequestID,
		Options: r.Options, Actor: r.Actor, Attribution: attr}
	return s.Write(ctx, wr, func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		return restorePlan(tx, doc, images, ids, r.Mode == ModeRevert)
	})
}

// restorePlan is Restore's work under the lock.
func restorePlan(tx *engine.Txn, doc *scene.Document, images *journal.Images, ids []string, revert bool) (PlanResult, error) {
	current := map[string]*ojson.Object{}
	for _, el := range doc.Elements() {
		if id, _ := el.String("id"); id != "" && current[id] == nil {
			current[id] = el
		}
	}
	var puts []engine.Put
	collateral := []string{}
	for _, id := range ids {
		before, ok := images.BeforeOf(id)
		if !ok {
			continue
		}
		if revert {
			after, _ := images.AfterOf(id)
			if !untouchedSince(current[id], after) {
				collateral = append(collateral, id)
				continue
			}
		}
		p := engine.Put{ID: id}
		if len(before.Element) > 0 && string(before.Element) != "null" {
			v, err := ojson.Decode(before.Element, ojson.Limits{})
			el, isObj := v.(*ojson.Object)
			if err != nil || !isObj {
				return PlanResult{}, sceneerr.New(sceneerr.CorruptScene, "the journal's image of %q does not parse", id)
			}
			p.Element = el
		}
		puts = append(puts, p)
	}
	changed, err := tx.Restore(puts)
	if err != nil {
		return PlanResult{}, err
	}
	return PlanResult{Targets: changed, Collateral: collateral,
		Extra: map[string]any{"restored": nonNil(changed)}}, nil
}

// untouchedSince reports whether el is still as a commit left it.
func untouchedSince(el *ojson.Object, after journal.State) bool {
	if after.Absent || el == nil {
		return after.Absent && el == nil
	}
	raw, err := ojson.Marshal(el)
	return err == nil && journal.Fingerprint(raw) == after.Hash
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}
