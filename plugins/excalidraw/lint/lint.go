package lint

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Severity is how bad a finding is.
type Severity string

const (
	// Error: the scene is inconsistent; Excalidraw repairs or drops
	// something when it loads it.
	Error Severity = "error"
	// Warning: the scene is consistent but looks wrong.
	Warning Severity = "warning"
	// Info: probably unintended; a hint, not a defect.
	Info Severity = "info"
)

func (s Severity) rank() int {
	switch s {
	case Error:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// Finding is one problem a rule found.
type Finding struct {
	// Code is the rule's stable snake_case code (see Rules).
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// IDs are the ids of the elements involved, sorted. An id may name
	// an element that does not exist (a dangling reference names it).
	IDs []string `json:"ids"`
	// Message is one line in plain words naming the elements.
	Message string `json:"message"`
	// Suggestion is a machine-actionable fix, nil when there is none.
	// Its "action" is one of:
	//
	//	resize  {id, width, height}
	//	move    {id, dx, dy}
	//	bind    {arrow, end: "start"|"end", target}
	//	unbind  {arrow, end}
	//	delete  {id}
	//	set     {id | ids, field, value}   a patch of one field
	//	link    {id, element, type}        add element to id's boundElements
	//	unlink  {id, element}              remove element from id's boundElements
	//	reorder {id, above}                draw id above the element above names
	//	repair  {}                         run repair_scene, which fixes it
	//
	// Numbers are rounded to hundredths. A move, resize or set suggestion
	// resolves its finding when applied (other findings may follow: a
	// moved shape can land near another).
	Suggestion map[string]any `json:"suggestion,omitempty"`
}

// Key is the finding's identity: its code and its ids. Two runs over
// two revisions of a scene agree on the keys of the findings they share,
// so what a write introduced or resolved is a set difference (Diff).
func (f Finding) Key() string {
	return f.Code + "|" + strings.Join(f.IDs, ",")
}

// Options adjust a Run.
type Options struct {
	// Scope limits the findings to those involving at least one of these
	// element ids; nil means every element. Pairwise rules then only
	// examine pairs with a scoped element, so linting what a write
	// touched (see Neighbours) costs what the write touched.
	Scope map[string]bool
	// Disabled switches rules off, by code ("overlap") or by category
	// ("structural", "visual", "hint").
	Disabled map[string]bool
	// Touched, when not nil, are the ids a write touched: the near misses
	// (alignment_near_miss, unbound_arrow_end) then only concern pairs
	// with a touched element. A few pixels between two elements, or an
	// arrow end left unbound beside a shape, that the write left alone
	// are the drawing's, not the write's, and people leave most of them
	// (Delta sets it to the changed ids). nil: every pair.
	Touched map[string]bool
	// ViewBackgroundColor is the canvas colour (appState's
	// viewBackgroundColor) text without a filled shape behind it is read
	// against; "" means "#ffffff", Excalidraw's default.
	ViewBackgroundColor string
}

func (o Options) enabled(code string) bool {
	if o.Disabled == nil {
		return true
	}
	r, ok := ruleByCode[code]
	return !o.Disabled[code] && !(ok && o.Disabled[string(r.Category)])
}

// Run lints the elements and returns the findings, sorted by severity
// (errors first), code and ids. Deleted elements are ignored. Run reads
// the elements and never changes them; the same input gives the same
// output, in the same order.
func Run(elements []*ojson.Object, o Options) []Finding {
	return newScene(elements, o, nil).run()
}

// run applies the enabled rules to a scene read already. A model's scene
// (s.kept not nil) runs each wholeScene rule once, on every element, and
// gives its findings again on later runs: finish filters them by scope as
// it would have filtered them fresh.
func (s *scene) run() []Finding {
	for _, r := range rules {
		if !s.opts.enabled(r.Code) {
			continue
		}
		if s.kept == nil || !wholeScene[r.Code] {
			r.run(s)
			continue
		}
		if f, ok := s.kept[r.Code]; ok {
			s.out = append(s.out, f...)
			continue
		}
		if f, ok := s.priorFindings(r.Code); ok {
			s.kept[r.Code] = f
			s.out = append(s.out, f...)
			continue
		}
		scope, near, from := s.opts.Scope, s.near, len(s.out)
		s.opts.Scope, s.near = nil, nil
		r.run(s)
		s.opts.Scope, s.near = scope, near
		s.kept[r.Code] = slices.Clone(s.out[from:])
	}
	s.prior.kept = nil // what this run took of them is kept now
	return s.finish()
}

// wholeScene are the rules whose findings depend on the scene alone: not
// on Options.Scope (but for the filter finish applies anyway) nor on
// Options.Touched. Several read every element, so a model's scene keeps
// their findings (scene.kept) for the writes that lint it again.
var wholeScene = map[string]bool{
	CodeDanglingBinding: true, CodeOneSidedBinding: true, CodeEmptyText: true,
	CodeOffCanvas: true, CodeTooManyFonts: true, CodeTooManyStrokeColors: true,
}

// keptWhile are, for wholeScene rules, what of an element the rule
// reads besides its id: a scene that follows the version before
// (scene.follows) takes that version's findings of the rule again when
// every edit leaves this the same.
var keptWhile = map[string]func(was, is *elData) bool{
	CodeDanglingBinding: sameRefs, CodeOneSidedBinding: sameRefs, CodeEmptyText: sameRefs,
	CodeTooManyStrokeColors: func(was, is *elData) bool { return was.strokeKey == is.strokeKey },
	CodeTooManyFonts: func(was, is *elData) bool {
		f1, ok1 := fontKey(was)
		f2, ok2 := fontKey(is)
		return f1 == f2 && ok1 == ok2
	},
}

// sameRefs: the same references (bindings, container, frame, bound
// elements), type and text, which are what the binding rules and
// empty_text read of an element and of its label (scene.name).
func sameRefs(was, is *elData) bool {
	return was.typ == is.typ && was.hasStart == is.hasStart && was.start == is.start &&
		was.hasEnd == is.hasEnd && was.end == is.end && was.container == is.container &&
		was.frame == is.frame && slices.Equal(was.bound, is.bound) && was.txt == is.txt && was.orig == is.orig
}

// priorFindings are the findings of a wholeScene rule the version before
// had, when this scene follows it and no edit changed what the rule
// reads.
func (s *scene) priorFindings(code string) ([]Finding, bool) {
	same, ok := keptWhile[code]
	f, had := s.prior.kept[code]
	if !ok || !had || !s.follows {
		return nil, false
	}
	for _, e := range s.edits {
		if !same(e.was, e.is) {
			return nil, false
		}
	}
	return f, true
}

// DeltaOptions are Delta's: the canvas colour of each version, and All
// to lint every element rather than what the write touched.
type DeltaOptions struct {
	BackgroundBefore, BackgroundAfter string
	All                               bool
}

// Delta lints a write: the findings involving the changed ids and their
// Neighbours (in either version), before and after, compared as Diff
// compares them. It is Neighbours, Run and Diff as a write would call
// them, reading each version once instead of twice.
func Delta(before, after []*ojson.Object, changed []string, o DeltaOptions) (added, resolved, persisting []Finding) {
	return DeltaModels(NewModel(before, o.BackgroundBefore), NewModel(after, o.BackgroundAfter), changed, o.All)
}

// sortFindings orders findings by severity, code, ids, then message.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		if c := cmp.Compare(a.Severity.rank(), b.Severity.rank()); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Code, b.Code); c != 0 {
			return c
		}
		if c := slices.Compare(a.IDs, b.IDs); c != 0 {
			return c
		}
		return cmp.Compare(a.Message, b.Message)
	})
}

// Diff compares the findings of a scene before and after a write: added
// are the findings after whose key was not found before, resolved those
// before whose key is gone, persisting those after whose key was there
// before (as they read after). Each keeps the order of its input (Run's
// order).
func Diff(before, after []Finding) (added, resolved, persisting []Finding) {
	was := make(map[string]bool, len(before))
	for _, f := range before {
		was[f.Key()] = true
	}
	is := make(map[string]bool, len(after))
	for _, f := range after {
		k := f.Key()
		if is[k] {
			continue
		}
		is[k] = true
		if was[k] {
			persisting = append(persisting, f)
		} else {
			added = append(added, f)
		}
	}
	seen := make(map[string]bool, len(before))
	for _, f := range before {
		k := f.Key()
		if seen[k] || is[k] {
			seen[k] = true
			continue
		}
		seen[k] = true
		resolved = append(resolved, f)
	}
	return added, resolved, persisting
}
