package engine

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// MaxFindLength bounds the find string of ReplaceText, in characters, so
// that a pattern stays cheap to compile and run (RE2 runs in time linear
// in the text, but its automaton grows with the pattern).
const MaxFindLength = 256

// Replacement is a find/replace over text (see ReplaceText).
type Replacement struct {
	// Find is the text to find: literal, or an RE2 pattern when Regex is
	// set; 1 to MaxFindLength characters.
	Find string
	// Replace is what each match becomes. With Regex, $1 or ${name}
	// expand to the match's groups (regexp.Regexp.Expand); otherwise it
	// is literal.
	Replace string
	// Regex makes Find an RE2 pattern (Go's regexp syntax).
	Regex bool
	// CaseSensitive matches letters in their case only; otherwise case
	// is ignored (Unicode simple folding).
	CaseSensitive bool
	// Pointer locates Find in the caller's request: errors about the
	// pattern, and about a text it would empty, are located there.
	Pointer string
}

// ReplaceText replaces every match of r in the text of the elements ids
// name — a text element's own text, or the label of a container or arrow
// named — or, when ids is nil, in every live text element of the scene,
// labels included. Matching runs on a text's original (unwrapped) text;
// the new text is then set as an update of "text" sets it, so it is
// measured and wrapped again, a label is laid out in its container
// (which grows if it no longer fits), and the arrows bound to a grown
// container follow. Elements without text among ids are passed over. A
// text no match changes is left as it is (not bumped).
//
// It returns the ids of the text elements whose text changed, in scene
// order. pointer locates the ids array in the caller's request (an
// unknown or deleted id is not_found at pointer/<i>); a bad or too long
// pattern, or a replacement that would leave a text empty, is
// invalid_operation at r.Pointer, and one that makes a text longer than
// Config.MaxTextLength is too_large there.
func (tx *Txn) ReplaceText(ids []string, r Replacement, pointer string) ([]string, error) {
	var changed []string
	err := tx.do(func() (err error) {
		changed, err = tx.replaceText(ids, r, pointer)
		return err
	})
	return changed, err
}

func (tx *Txn) replaceText(ids []string, r Replacement, pointer string) ([]string, error) {
	tx.index()
	re, err := r.compile()
	if err != nil {
		return nil, err
	}
	texts, err := tx.textsOf(ids, pointer)
	if err != nil {
		return nil, err
	}
	changed := []string{}
	for _, t := range texts {
		id := scene.StringOf(t, "id")
		was := build.OriginalText(t)
		if !re.MatchString(was) {
			continue
		}
		var now string
		if r.Regex {
			now = re.ReplaceAllString(was, r.Replace)
		} else {
			now = re.ReplaceAllLiteralString(was, r.Replace)
		}
		now = textmetrics.NormalizeText(now)
		if now == was {
			continue
		}
		if strings.TrimSpace(now) == "" {
			return nil, opError(r.Pointer, "the replacement leaves the text of %q empty; delete the element instead", id).With("id", id)
		}
		if n := utf8.RuneCountInString(now); tx.cfg.MaxTextLength > 0 && n > tx.cfg.MaxTextLength {
			return nil, sceneerr.OverLimit(sceneerr.MaxTextLength, int64(n), int64(tx.cfg.MaxTextLength)).
				With("pointer", r.Pointer).With("id", id)
		}
		op := Op{kind: opUpdate, id: id, patch: ojson.New().Set("text", now), pointer: r.Pointer}
		if err := tx.update(op); err != nil {
			return nil, err
		}
		changed = append(changed, id)
		tx.note(id)
	}
	tx.result.Updated += len(changed)
	return changed, nil
}

// compile turns the find string into one pattern for both modes.
func (r Replacement) compile() (*regexp.Regexp, error) {
	if r.Find == "" || utf8.RuneCountInString(r.Find) > MaxFindLength {
		return nil, opError(r.Pointer, "find must hold 1 to %d characters", MaxFindLength)
	}
	pattern := r.Find
	if !r.Regex {
		pattern = regexp.QuoteMeta(pattern)
	}
	if !r.CaseSensitive {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, opError(r.Pointer, "find is not a valid RE2 pattern: %v", err)
	}
	return re, nil
}

// textsOf are the text elements a replace runs on, in scene order: those
// ids name (a container or arrow by its label), or every live text
// element when ids is nil. A label whose container is gone is left out:
// it has nothing to be laid out in.
func (tx *Txn) textsOf(ids []string, pointer string) ([]*ojson.Object, error) {
	want := map[*ojson.Object]bool{}
	if ids != nil {
		named, err := tx.named(ids, pointer)
		if err != nil {
			return nil, err
		}
		for _, el := range named {
			if scene.StringOf(el, "type") != "text" {
				el = tx.labelOf(el)
			}
			if el != nil {
				want[el] = true
			}
		}
	}
	var out []*ojson.Object
	for _, el := range tx.doc.Elements() {
		if el == nil || scene.IsDeleted(el) || scene.StringOf(el, "type") != "text" || (ids != nil && !want[el]) {
			continue
		}
		if cid := scene.StringOf(el, "containerId"); cid != "" {
			if c := tx.byID.Get(cid); c == nil || scene.IsDeleted(c) {
				continue
			}
		}
		out = append(out, el)
	}
	return out, nil
}
