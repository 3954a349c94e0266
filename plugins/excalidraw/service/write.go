package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// WriteOptions are what every element-level write tool takes as
// `options` (see Write).
type WriteOptions struct {
	// DryRun plans and lints but writes nothing: the envelope says
	// persisted:false.
	DryRun bool `json:"dryRun,omitempty"`
	// Strict aborts the call if it would add a lint finding of severity
	// error, or if the plan ignored a field.
	Strict bool `json:"strict,omitempty"`
	// Lint is "off", "touched" (the default: the elements the write
	// changed and their neighbours) or "all".
	Lint string `json:"lint,omitempty"`
	// Expect are preconditions checked inside the transaction.
	Expect *Expect `json:"expect,omitempty"`
	// Snap rounds the positions and sizes of the changed elements to a
	// grid of this many pixels (0: off).
	Snap float64 `json:"snap,omitempty"`
	// Verify reads the committed file back and compares the changed
	// elements with what was planned.
	Verify bool `json:"verify,omitempty"`
	// Note is free text kept with the commit (the history shows it).
	Note string `json:"note,omitempty"`
}

// Lint scopes.
const (
	LintOff     = "off"
	LintTouched = "touched"
	LintAll     = "all"
)

// Expect is a set of preconditions, checked on the scene as it is under
// the lock, before the plan runs. A failed one is expectation_failed with
// the expected and the actual values.
type Expect struct {
	Revision *int64        `json:"revision,omitempty"`
	Present  []string      `json:"present,omitempty"`
	Absent   []string      `json:"absent,omitempty"`
	Counts   []ExpectCount `json:"counts,omitempty"`
}

// ExpectCount bounds how many live elements a target selects.
type ExpectCount struct {
	Target query.Target `json:"target"`
	Min    *int         `json:"min,omitempty"`
	Max    *int         `json:"max,omitempty"`
}

// WriteRequest is one element-level write.
type WriteRequest struct {
	Name string
	// ExpectedRevision, when set, is the contract's fence; when nil the
	// plan runs on the current revision under the lock (and Expect
	// guards what matters).
	ExpectedRevision *int64
	RequestID        string
	Options          WriteOptions
	// Actor defaults to agent.
	Actor store.Actor
	// Attribution is kept in the journal; its Note defaults to
	// Options.Note.
	Attribution store.Attribution
	// Named are the ids the call names, a hint: the plan runs on a fork
	// of the stored scene that owns them (and what they reference) from
	// the start. One it changes but is not named costs a second run of
	// the plan, never a wrong write.
	Named []string
}

// Plan is a write's work on the transaction: it returns the ids the call
// named (its targets: what is not among them but changed is collateral)
// and what it ignored.
type Plan func(tx *engine.Txn, doc *scene.Document) (PlanResult, error)

// PlanResult is what a Plan reports besides its edits.
type PlanResult struct {
	Targets []string
	Ignored []IgnoredField
	// Extra is merged into the envelope (a tool's own result: the id of
	// a new group or frame, a ref → id map).
	Extra map[string]any
	// Collateral, when not nil, is the envelope's collateral instead of
	// what the diff finds: a revert's elements that later commits changed
	// again, left alone.
	Collateral []string
	// Relaid are the elements the engine's keepers laid out again after
	// the plan (engine.Txn.Keep: a table's grid, a stack's gaps): they
	// are reported as relaidOut, not collateral. The write fills it.
	Relaid []string
}

// IgnoredField is a field a write was given and did not apply, and why
// (see ignored.go): Field is where it is in the call's arguments (a JSON
// pointer, as errors point), ID the element it was for, if one.
type IgnoredField struct {
	ID     string `json:"id,omitempty"`
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// Envelope is every element-level write's result: what it did, in ids,
// never whole documents.
type Envelope struct {
	Name             string            `json:"name"`
	Revision         int64             `json:"revision"`
	PreviousRevision int64             `json:"previousRevision,omitempty"`
	SHA256           string            `json:"sha256"`
	Persisted        bool              `json:"persisted"`
	Duplicate        bool              `json:"duplicate,omitempty"`
	Unchanged        bool              `json:"unchanged,omitempty"`
	Changed          Changes           `json:"changed"`
	Labels           map[string]string `json:"labels,omitempty"`
	IgnoredFields    []IgnoredField    `json:"ignoredFields,omitempty"`
	Rerouted         []string          `json:"rerouted,omitempty"`
	RelaidOut        []string          `json:"relaidOut,omitempty"`
	Collateral       []string          `json:"collateral,omitempty"`
	// Normalized counts the elements of changed.updated that changed only
	// because the scene, a file made elsewhere, was brought to the stored
	// form (scene.Normalize), not by the write.
	Normalized int            `json:"normalized,omitempty"`
	Lint       *LintDelta     `json:"lint,omitempty"`
	Verified   *bool          `json:"verified,omitempty"`
	Note       string         `json:"note,omitempty"`
	Extra      map[string]any `json:"-"`
}

// Changes are the ids a write created, updated, deleted and revived.
type Changes struct {
	Created []string `json:"created"`
	Updated []string `json:"updated"`
	Deleted []string `json:"deleted"`
	Revived []string `json:"revived,omitempty"`
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Created)+len(c.Updated)+len(c.Deleted)+len(c.Revived) == 0
}

// LintDelta is what a write did to the scene's lint: the findings it
// introduced, those it resolved, and those that were there before and
// are still there.
type LintDelta struct {
	New        []lint.Finding `json:"new"`
	Resolved   []lint.Finding `json:"resolved"`
	Persisting Persisting     `json:"persisting"`
}

// Persisting names the findings a write left as they were, compactly:
// each as "code:id,id" (its code and the elements it names, as
// validate_scene lists them), errors first, at most maxLintShown of them, and how
// many there are in all.
type Persisting struct {
	Total    int      `json:"total"`
	Findings []string `json:"findings"`
}

// persistingOf is f as Persisting.
func persistingOf(f []lint.Finding) Persisting {
	rank := map[lint.Severity]int{lint.Error: 0, lint.Warning: 1}
	sorted := slices.Clone(f)
	slices.SortStableFunc(sorted, func(a, b lint.Finding) int {
		ra, oka := rank[a.Severity]
		rb, okb := rank[b.Severity]
		if !oka {
			ra = 2
		}
		if !okb {
			rb = 2
		}
		return ra - rb
	})
	p := Persisting{Total: len(f), Findings: make([]string, 0, min(len(f), maxLintShown))}
	for _, x := range sorted[:min(len(sorted), maxLintShown)] {
		ids := strings.Join(x.IDs[:min(len(x.IDs), maxPersistingIDs)], ",")
		if more := len(x.IDs) - maxPersistingIDs; more > 0 {
			ids += ",+" + strconv.Itoa(more)
		}
		p.Findings = append(p.Findings, x.Code+":"+ids)
	}
	return p
}

// maxPersistingIDs bounds the ids a persisting finding names ("+3" says
// how many more it has).
const maxPersistingIDs = 4

// MarshalJSON merges Extra into the envelope's members.
func (e *Envelope) MarshalJSON() ([]byte, error) {
	type plain Envelope
	b, err := json.Marshal((*plain)(e))
	if err != nil || len(e.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range e.Extra {
		if _, taken := m[k]; taken {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		m[k] = raw
	}
	return json.Marshal(m)
}

// maxLintShown bounds the findings an envelope lists per direction.
const maxLintShown = 20

// Write runs plan in one engine transaction on a private copy of the
// scene, under the store's lock, and commits once:
//
//	fence (expected_revision, if given) ─► expect ─► plan ─► snap
//	  ─► normalize, validate, limits ─► diff (created, updated, deleted,
//	  revived; collateral) ─► lint before/after on the touched region
//	  ─► strict? abort on new errors or ignored fields ─► dryRun? write
//	  nothing ─► commit ─► verify? read back
//
// A plan that changes nothing writes nothing and says so (unchanged).
func (s *Service) Write(ctx context.Context, r WriteRequest, plan Plan) (*Envelope, error) {
	w, err := s.write(ctx, r, plan, true)
	if err != nil {
		return nil, err
	}
	return w.env, nil
}

// written is what a write did: the store's result, the document the plan
// left (nil when the plan did not run: a repeated request id) and, when
// asked for, the envelope.
type written struct {
	res *store.Result
	doc *scene.Document
	env *Envelope
}

// write is the one write pipeline, Write's stages; every write of an
// existing scene by an agent goes through it (Write, Edit, Copy, Restore,
// Apply). Without envelope it leaves out what only the envelope needs
// (the diff and its classification, lint, strict): Apply answers the
// contract's WriteResult instead.
func (s *Service) write(ctx context.Context, r WriteRequest, plan Plan, envelope bool) (*written, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	o := r.Options
	switch o.Lint {
	case "":
		o.Lint = LintTouched
	case LintOff, LintTouched, LintAll:
	default:
		return nil, opError("/options/lint", "lint must be %q, %q or %q, not %q", LintOff, LintTouched, LintAll, o.Lint)
	}
	if o.Snap < 0 || o.Snap > 1000 || math.IsNaN(o.Snap) {
		return nil, opError("/options/snap", "snap must be a grid size from 0 (off) to 1000 px")
	}
	env := &Envelope{Name: r.Name, Note: o.Note, Changed: Changes{Created: []string{}, Updated: []string{}, Deleted: []string{}}}
	ctx, span := startSpan(ctx, spanWrite, r.Name)
	defer span.End()
	commitCtx, commitSpan := startSpan(ctx, spanCommit, r.Name)
	var planned *scene.Document
	var changedIDs []string
	var lintPending func() *LintDelta // the lint running beside the commit
	var settled func(error)           // what showed the write early (preview.go)
	attr := r.Attribution
	if attr.Note == "" {
		attr.Note = o.Note
	}
	req := store.UpdateRequest{
		Name: r.Name, Actor: actorOr(r.Actor, store.ActorAgent), RequestID: r.RequestID, Attribution: attr,
		AnyRevision: r.ExpectedRevision == nil,
		Mutate: func(cur *store.Scene) ([]byte, error) {
			_, planSpan := startSpan(commitCtx, spanPlan, r.Name)
			out, doc, ids, pending, shown, err := s.plan(cur, o, plan, env, r.Named, envelope)
			planSpan.End()
			planned, changedIDs, lintPending = doc, ids, pending
			if err != nil || o.DryRun {
				if err == nil {
					return cur.Data, nil // no change: nothing is written
				}
				return nil, err
			}
			if s.preview != nil && len(shown) > 0 {
				settled = s.preview(r.Name, shown)
			}
			return out, nil
		},
	}
	if r.ExpectedRevision != nil {
		req.ExpectedRevision = *r.ExpectedRevision
	}
	var res *store.Result
	var err error
	if o.DryRun || o.Verify {
		res, err = s.store.Update(commitCtx, req) // answered alone: nothing to share, or a read-back of its own
	} else {
		res, err = s.store.updateGrouped(commitCtx, &s.groups, req)
	}
	endCommit(commitSpan, res, err)
	if settled != nil {
		settled(err)
	}
	if lintPending != nil {
		_, lintSpan := startSpan(ctx, spanLint, r.Name)
		env.Lint = lintPending()
		lintSpan.End()
	}
	if err != nil {
		return nil, mapError(err)
	}
	s.committed(res)
	env.Revision, env.PreviousRevision, env.SHA256 = res.Revision, res.PreviousRevision, res.SHA256
	env.Duplicate = res.Duplicate
	env.Persisted = !o.DryRun && !res.Duplicate && !res.Unchanged
	env.Unchanged = !res.Duplicate && env.Changed.Empty()
	if o.DryRun {
		env.Revision, env.PreviousRevision = res.Revision, 0
	}
	if o.Verify && env.Persisted && planned != nil {
		ok, err := s.verifyWrite(ctx, r.Name, planned, changedIDs)
		if err != nil {
			return nil, err
		}
		env.Verified = &ok
	}
	return &written{res: res, doc: planned, env: env}, nil
}

// plan is Write's work under the lock: it returns the bytes to store, the
// planned document, the ids that changed and the elements a preview
// shows (none when the bytes are the stored ones), and fills env.
//
// The lint of a write that is not strict runs beside the commit (both
// documents are sealed, so nothing changes under it): plan returns a
// function that waits for it. A strict write's lint decides whether it
// commits, so it runs first. Without envelope, plan leaves env and what
// fills it alone.
func (s *Service) plan(cur *store.Scene, o WriteOptions, plan Plan, env *Envelope, named []string, envelope bool) ([]byte, *scene.Document, []string, func() *LintDelta, []json.RawMessage, error) {
	before, err := s.viewStored(cur.Data) // read only: the plan edits a fork
	if err != nil {
		return nil, nil, nil, nil, nil, sceneerr.New(sceneerr.CorruptScene, "stored scene does not parse").With("cause", err.Error())
	}
	if err := checkExpect(o.Expect, cur.Revision, before); err != nil {
		return nil, nil, nil, nil, nil, err
	}
	var pr PlanResult
	var out []byte
	var sp *scene.Split
	var touched map[string]bool
	after, err := s.editStored(cur.Data, named, func(after *scene.Document, sd seed) error {
		if _, err := s.editSeeded(after, sd, func(tx *engine.Txn) error {
			var err error
			pr, err = plan(tx, after)
			if err == nil {
				pr.Relaid, err = tx.Keep()
			}
			touched = map[string]bool{}
			for _, id := range tx.Touched() {
				touched[id] = true
			}
			return err
		}); err != nil {
			return err
		}
		if o.Snap > 0 {
			snapChanged(before, after, o.Snap)
		}
		var err error
		out, _, sp, err = s.finishSplit(after)
		return err
	})
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	var changedIDs []string
	var pending func() *LintDelta
	if envelope {
		if changedIDs, pending, err = s.report(env, o, before, after, pr, touched); err != nil {
			return nil, nil, nil, nil, nil, err
		}
	}
	if bytes.Equal(out, cur.Data) {
		return cur.Data, after, changedIDs, pending, nil, nil
	}
	return out, after, changedIDs, pending, previewOf(sp), nil
}

// report fills env with what the write did (the diff from before to
// after, classified; lint) and returns the ids that changed and, unless
// the write is strict, the lint running beside the commit; a strict
// write that adds a lint error or ignored a field fails here.
func (s *Service) report(env *Envelope, o WriteOptions, before, after *scene.Document, pr PlanResult, touched map[string]bool) ([]string, func() *LintDelta, error) {
	ch, changedIDs := diff(before, after)
	env.Changed = ch
	env.IgnoredFields = append(pr.Ignored, o.ignored()...)
	env.Extra = pr.Extra
	classify(env, before, after, pr.Targets, pr.Relaid, changedIDs, touched)
	if pr.Collateral != nil {
		env.Collateral = pr.Collateral
	}
	var pending func() *LintDelta
	if o.Lint != LintOff && len(changedIDs) > 0 {
		all := o.Lint == LintAll
		if o.Strict {
			env.Lint = lintDelta(before, after, changedIDs, all)
		} else {
			pending = s.lintBeside(before, after, changedIDs, all)
		}
	}
	if o.Strict {
		if err := strictCheck(env); err != nil {
			return nil, nil, err
		}
	}
	return changedIDs, pending, nil
}

// lintBeside starts lintDelta and returns a function that waits for its
// result (nil, logged, if it panicked: a lint fault must not end the
// process or fail a write it does not decide).
func (s *Service) lintBeside(before, after *scene.Document, changed []string, all bool) func() *LintDelta {
	done := make(chan *LintDelta, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("lint failed", zap.Any("panic", r))
				done <- nil
			}
		}()
		done <- lintDelta(before, after, changed, all)
	}()
	return sync.OnceValue(func() *LintDelta { return <-done })
}

// checkExpect checks the preconditions on the scene as stored.
func checkExpect(e *Expect, revision int64, doc *scene.Document) error {
	if e == nil {
		return nil
	}
	if e.Revision != nil && *e.Revision != revision {
		return expectFailed("/options/expect/revision", "the scene is at revision %d, not %d", revision, *e.Revision).
			With("expected", *e.Revision).With("actual", revision)
	}
	live := map[string]bool{}
	for _, el := range doc.Elements() {
		if id, _ := el.String("id"); id != "" && !scene.IsDeleted(el) {
			live[id] = true
		}
	}
	for i, id := range e.Present {
		if !live[id] {
			return expectFailed(fmt.Sprintf("/options/expect/present/%d", i), "element %q is not in the scene", id).
				With("expected", "present").With("actual", "absent").With("id", id)
		}
	}
	for i, id := range e.Absent {
		if live[id] {
			return expectFailed(fmt.Sprintf("/options/expect/absent/%d", i), "element %q is in the scene", id).
				With("expected", "absent").With("actual", "present").With("id", id)
		}
	}
	for i, c := range e.Counts {
		els, err := query.Select(doc.Elements(), c.Target)
		if err != nil {
			return prefixPointer(err, fmt.Sprintf("/options/expect/counts/%d/target", i))
		}
		n := len(els)
		if (c.Min != nil && n < *c.Min) || (c.Max != nil && n > *c.Max) {
			e := expectFailed(fmt.Sprintf("/options/expect/counts/%d", i), "the target selects %d elements", n).With("actual", n)
			if c.Min != nil {
				e = e.With("min", *c.Min)
			}
			if c.Max != nil {
				e = e.With("max", *c.Max)
			}
			return e
		}
	}
	return nil
}

// expectFailed is a failed precondition: invalid_operation with the
// pointer to the expectation and its expected and actual values.
func expectFailed(pointer, format string, args ...any) *sceneerr.Error {
	return sceneerr.New(sceneerr.InvalidOperation, "expectation failed: "+format, args...).
		With("pointer", pointer).With("reason", "expectation_failed")
}

// prefixPointer puts pointer before a scene error's own pointer.
func prefixPointer(err error, pointer string) error {
	var se *sceneerr.Error
	if !errors.As(err, &se) {
		return err
	}
	p, _ := se.Details["pointer"].(string)
	return se.With("pointer", pointer+p)
}

// diff compares two versions of a scene by id and version.
func diff(before, after *scene.Document) (Changes, []string) {
	if ch, changed, ok := diffShared(before, after); ok {
		return ch, changed
	}
	was := before.ByID()
	ch := Changes{Created: []string{}, Updated: []string{}, Deleted: []string{}}
	var changed []string
	seen := map[string]bool{}
	for _, el := range after.Elements() {
		id, _ := el.String("id")
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		changed = ch.add(changed, id, was[id], el)
	}
	return ch, changed
}

// classify fills the envelope's labels, collateral, rerouted and
// relaidOut from the diff: what changed that the call did not name.
// Only the write's own effects count: an element the transaction did not
// touch changed because finishing brought a file made elsewhere to the
// stored form (scene.Normalize: a missing index, boundElements null…),
// and one it touched whose stored form is as finishing alone would have
// made it (versions aside) did not change either; both are left out, and
// counted in env.Normalized when finishing changed them. An arrow is
// rerouted when its geometry changed, a text relaid out when its text or
// box did.
func classify(env *Envelope, before, after *scene.Document, targets, kept, changed []string, touched map[string]bool) {
	named := map[string]bool{}
	for _, id := range targets {
		named[id] = true
	}
	relaid := map[string]bool{}
	for _, id := range kept {
		relaid[id] = true
	}
	for _, id := range env.Changed.Created {
		named[id] = true
	}
	afterByID, beforeIdx := after.ByID(), before.ByID()
	// finished is before as finishing alone stores it, made only when
	// finishing changed an element the write did not touch (the first
	// write to a file made elsewhere).
	var finished map[string]*ojson.Object
	for _, id := range changed {
		if !named[id] && !touched[id] && beforeIdx[id] != nil {
			d := before.Clone()
			scene.Normalize(d)
			finished = d.ByID()
			break
		}
	}
	labels := map[string]string{}
	for _, id := range changed {
		el := afterByID[id]
		if el == nil {
			continue
		}
		typ, _ := el.String("type")
		if t := labelOf(el, afterByID); t != "" && !scene.IsDeleted(el) && (named[id] || typ == "text") {
			if typ != "text" || scene.StringOf(el, "containerId") == "" {
				labels[id] = t
			}
		}
		if named[id] {
			continue
		}
		old := beforeIdx[id]
		if old != nil {
			if f := finished[id]; f != nil {
				old = f // compare with what finishing alone would store
			}
			if !touched[id] || sameButVersion(old, el) {
				if finished[id] != nil {
					env.Normalized++
				}
				continue
			}
		}
		if cid := scene.StringOf(el, "containerId"); cid != "" && named[cid] {
			// a label that followed its named container
			if old != nil && textMoved(old, el) {
				env.RelaidOut = append(env.RelaidOut, id)
			}
			continue
		}
		if relaid[id] {
			env.RelaidOut = append(env.RelaidOut, id)
			continue
		}
		switch {
		case scene.IsLinear(typ):
			if old == nil || pathMoved(old, el) {
				env.Rerouted = append(env.Rerouted, id)
			}
		case typ == "text":
			if old == nil || textMoved(old, el) {
				env.RelaidOut = append(env.RelaidOut, id)
			}
		}
		env.Collateral = append(env.Collateral, id)
	}
	if len(labels) > 0 {
		env.Labels = labels
	}
}

// sameButVersion reports whether a and b are equal but for their version
// fields (version, versionNonce, updated).
func sameButVersion(a, b *ojson.Object) bool {
	if a == b {
		return true
	}
	a, b = a.Clone(), b.Clone()
	for _, k := range []string{"version", "versionNonce", "updated"} {
		a.Delete(k)
		b.Delete(k)
	}
	return ojson.Equal(a, b, true)
}

// pathMoved reports whether a linear element's geometry differs.
func pathMoved(a, b *ojson.Object) bool {
	for _, k := range []string{"x", "y", "width", "height", "angle", "points"} {
		va, _ := a.Get(k)
		vb, _ := b.Get(k)
		if !ojson.Equal(va, vb, true) {
			return true
		}
	}
	return false
}

// labelOf is what an element says: a text's text, a container's label,
// an arrow's label.
func labelOf(el *ojson.Object, byID map[string]*ojson.Object) string {
	if t, ok := el.String("text"); ok {
		return t
	}
	be, _ := el.Array("boundElements")
	for _, b := range be {
		o, _ := b.(*ojson.Object)
		if o == nil {
			continue
		}
		if typ, _ := o.String("type"); typ == "text" {
			id, _ := o.String("id")
			if t := byID[id]; t != nil && !scene.IsDeleted(t) {
				s, _ := t.String("text")
				return s
			}
		}
	}
	return ""
}

// textMoved reports whether a text's layout changed.
func textMoved(a, b *ojson.Object) bool {
	for _, k := range []string{"x", "y", "width", "height", "text"} {
		va, _ := a.Get(k)
		vb, _ := b.Get(k)
		if fmt.Sprint(va) != fmt.Sprint(vb) {
			return true
		}
	}
	return false
}

// lintDelta lints the touched region (the changed elements and their
// neighbours, before and after) or the whole scene, and diffs.
func lintDelta(before, after *scene.Document, changed []string, all bool) *LintDelta {
	bg := func(doc *scene.Document) string {
		if a := doc.AppState(); a != nil {
			if c, ok := a.String("viewBackgroundColor"); ok {
				return c
			}
		}
		return ""
	}
	model := func(doc *scene.Document) *lint.Model {
		return doc.Kept(lintModelKey{}, func() any { return lint.NewModel(doc.Elements(), bg(doc)) }).(*lint.Model)
	}
	added, resolved, persisting := lint.DeltaModels(model(before), model(after), changed, all)
	return &LintDelta{New: capFindings(added), Resolved: capFindings(resolved), Persisting: persistingOf(persisting)}
}

// lintModelKey keys a sealed document's lint model (scene.Document.Kept):
// the model of a write's result is the next write's model of what it
// starts from.
type lintModelKey struct{}

func capFindings(f []lint.Finding) []lint.Finding {
	if f == nil {
		return []lint.Finding{}
	}
	if len(f) > maxLintShown {
		return f[:maxLintShown]
	}
	return f
}

// strictCheck refuses a plan that adds an error finding or ignored a
// field.
func strictCheck(env *Envelope) error {
	var errs []lint.Finding
	if env.Lint != nil {
		for _, f := range env.Lint.New {
			if f.Severity == lint.Error {
				errs = append(errs, f)
			}
		}
	}
	if len(errs) == 0 && len(env.IgnoredFields) == 0 {
		return nil
	}
	e := sceneerr.New(sceneerr.InvalidOperation, "strict: the write would add %d lint error(s) and ignore %d field(s); nothing was written",
		len(errs), len(env.IgnoredFields)).With("pointer", "/options/strict").With("reason", "strict")
	if len(errs) > 0 {
		e = e.With("lint", errs)
	}
	if len(env.IgnoredFields) > 0 {
		e = e.With("ignoredFields", env.IgnoredFields)
	}
	return e
}

// add classifies element id, old in the document before (nil: absent)
// and el after, into ch, and appends id to changed if it changed.
func (ch *Changes) add(changed []string, id string, old, el *ojson.Object) []string {
	switch {
	case old == nil:
		if !scene.IsDeleted(el) {
			ch.Created = append(ch.Created, id)
			changed = append(changed, id)
		}
	case old == el || ojson.Equal(old, el, true): // a fork shares what it left alone
	case scene.IsDeleted(old) && !scene.IsDeleted(el):
		ch.Revived = append(ch.Revived, id)
		changed = append(changed, id)
	case !scene.IsDeleted(old) && scene.IsDeleted(el):
		ch.Deleted = append(ch.Deleted, id)
		changed = append(changed, id)
	case !scene.IsDeleted(el):
		ch.Updated = append(ch.Updated, id)
		changed = append(changed, id)
	}
	return changed
}

// diffShared is diff for an after that shares most elements with a
// sealed before (a fork of it): an element at the position it had,
// the same object, did not change, so only the others are looked at
// (ids are unique in both, which finish and Seal assure). ok is false
// when the documents are not so alike.
func diffShared(before, after *scene.Document) (Changes, []string, bool) {
	b, a := before.Elements(), after.Elements()
	if !before.Sealed() || !after.Sealed() || len(a) < len(b) {
		return Changes{}, nil, false
	}
	var cand []int
	for i, el := range a {
		if i >= len(b) || el != b[i] {
			cand = append(cand, i)
		}
	}
	if len(cand) > len(a)/4+8 {
		return Changes{}, nil, false
	}
	ch := Changes{Created: []string{}, Updated: []string{}, Deleted: []string{}}
	var changed []string
	for _, i := range cand {
		el := a[i]
		id, _ := el.String("id")
		if id == "" {
			continue
		}
		var old *ojson.Object
		if i < len(b) && scene.StringOf(b[i], "id") == id {
			old = b[i]
		} else if j, ok := before.IndexOf(id); ok {
			old = b[j]
		}
		changed = ch.add(changed, id, old, el)
	}
	return ch, changed, true
}

// snapChanged rounds the position and size of every element that changed
// to the grid (arrows and labels are left to follow their shapes).
func snapChanged(before, after *scene.Document, grid float64) {
	was := before.ByID()
	round := func(f float64) float64 { return math.Round(f/grid) * grid }
	for _, el := range after.Elements() {
		id, _ := el.String("id")
		if old := was[id]; old != nil && (old == el || ojson.Equal(old, el, true)) {
			continue
		}
		typ, _ := el.String("type")
		if scene.IsLinear(typ) || typ == "freedraw" || scene.StringOf(el, "containerId") != "" {
			continue
		}
		for _, k := range []string{"x", "y", "width", "height"} {
			if f, ok := el.Number(k); ok {
				v := round(f)
				if (k == "width" || k == "height") && v < grid {
					v = grid
				}
				el.Set(k, v)
			}
		}
	}
}

// verifyWrite reads the scene back and compares the changed elements
// with the planned ones.
func (s *Service) verifyWrite(ctx context.Context, name string, planned *scene.Document, ids []string) (bool, error) {
	sc, err := s.store.Read(ctx, name)
	if err != nil {
		return false, mapError(err)
	}
	doc, err := s.parseStored(sc.Data)
	if err != nil {
		return false, nil
	}
	want, got := planned.ByID(), doc.ByID()
	sorted := slices.Clone(ids)
	sort.Strings(sorted)
	for _, id := range sorted {
		if w, g := want[id], got[id]; w == nil || g == nil || !ojson.Equal(w, g, true) {
			return false, nil
		}
	}
	return true, nil
}
