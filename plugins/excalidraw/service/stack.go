package service

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// CreateStack lays out a column or a row of items gap apart and keeps it
// so (engine's stack keeper): existing elements (ids or target, in the
// order given), new ones (Elements, element inputs whose places the stack
// decides), or both; with Stack, the items are added to the end of that
// stack.
type CreateStack struct {
	engine.Selection
	Elements  []json.RawMessage `json:"elements,omitempty"`
	Stack     string            `json:"stack,omitempty"`
	Direction string            `json:"direction,omitempty"`
	Align     string            `json:"align,omitempty"`
	Gap       *float64          `json:"gap,omitempty"`
	At        *engine.Point     `json:"at,omitempty"`

	profile profile.Profile
}

// WithProfile takes the board's spacing as the default gap.
func (e CreateStack) WithProfile(p profile.Profile) Edit {
	e.profile = p
	return e
}

func (e CreateStack) Named() []string { return e.IDs }

func (e CreateStack) Plan(at string) Plan {
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		if err := e.check(at); err != nil {
			return PlanResult{}, err
		}
		st := engine.Stack{Direction: e.Direction, Align: e.Align, Gap: e.profile.Gap()}
		var items [][]string
		if e.Stack != "" {
			old, have, ok := tx.StackOf(e.Stack)
			if !ok {
				return PlanResult{}, sceneerr.New(sceneerr.NotFound, "no stack %q in this scene; create_stack answers its id", e.Stack).
					With("pointer", at+"/stack")
			}
			items = have
			reanchor := e.Direction != "" && e.Direction != old.Direction || e.Align != "" && e.Align != old.Align
			st = old
			if e.Direction != "" {
				st.Direction = e.Direction
			}
			if e.Align != "" {
				st.Align = e.Align
			}
			if reanchor {
				st = tx.StackAnchor(st, items[:1], nil)
			}
		} else {
			st.ID = newStackID()
			if st.Direction == "" {
				st.Direction = "column"
			}
			if st.Align == "" {
				st.Align = "start"
			}
		}
		if e.Gap != nil {
			st.Gap = *e.Gap
		}
		// What is where before the new elements come: a new stack of new
		// elements goes beside it.
		beside := besideContent(doc)
		if len(e.IDs) > 0 || e.Target != nil {
			ids, err := tx.Resolve(e.Selection, true)
			if err != nil {
				return PlanResult{}, prefixPointer(err, at)
			}
			more, err := tx.StackItems(ids, at+e.Pointer())
			if err != nil {
				return PlanResult{}, err
			}
			items = appendItems(items, more)
		}
		if len(e.Elements) > 0 {
			inputs, place, err := stackInputs(e.Elements, at+"/elements")
			if err != nil {
				return PlanResult{}, err
			}
			res, err := tx.Create(inputs, at+"/elements")
			if err != nil {
				return PlanResult{}, err
			}
			if e.At == nil && len(items) == 0 && place == nil {
				p := engine.Point{X: beside.X, Y: beside.Y}
				e.At = &p
			}
			more, err := tx.StackItems(res.IDs, at+"/elements")
			if err != nil {
				return PlanResult{}, err
			}
			items = appendItems(items, more)
		}
		if len(items) == 0 {
			return PlanResult{}, opError(at+e.Pointer(), "nothing to stack: an arrow bound to shapes follows them and is no item")
		}
		if e.Stack == "" || e.At != nil {
			st = tx.StackAnchor(st, items, e.At)
		}
		if _, err := tx.SetStack(st, items, at); err != nil {
			return PlanResult{}, err
		}
		targets := make([]string, len(items))
		for i, it := range items {
			targets[i] = it[0]
		}
		return PlanResult{Targets: targets, Extra: map[string]any{"stack": st.ID, "items": targets}}, nil
	}
}

// check refuses what cannot make a stack, before anything changes.
func (e CreateStack) check(at string) error {
	switch {
	case len(e.IDs) == 0 && e.Target == nil && len(e.Elements) == 0:
		return opError(at+"/ids", "give the items: ids or target (existing elements) and/or elements (new ones)")
	case e.Direction != "" && e.Direction != "column" && e.Direction != "row":
		return opError(at+"/direction", "direction is column or row, not %q", e.Direction)
	case e.Align != "" && e.Align != "start" && e.Align != "center" && e.Align != "end":
		return opError(at+"/align", "align is start, center or end, not %q", e.Align)
	case e.Gap != nil && (*e.Gap < 0 || *e.Gap > 10000):
		return opError(at+"/gap", "gap must be between 0 and 10000")
	case e.Stack != "" && e.At != nil:
		return opError(at+"/at", "a stack stays where it is: give at only to a new stack")
	}
	return nil
}

// appendItems adds the items of more that are not among items (by their
// first id) to its end.
func appendItems(items, more [][]string) [][]string {
	for _, it := range more {
		if !slices.ContainsFunc(items, func(o []string) bool { return slices.Contains(o, it[0]) }) {
			items = append(items, it)
		}
	}
	return items
}

// stackInputs gives every input a place (0, 0 where it has none: the
// stack decides where it goes) and returns the first input's place when
// it gave one (where the stack then starts).
func stackInputs(in []json.RawMessage, pointer string) ([]json.RawMessage, *engine.Point, error) {
	out := make([]json.RawMessage, len(in))
	var first *engine.Point
	for i, raw := range in {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil || m == nil {
			return nil, nil, opError(pointer+"/"+strconv.Itoa(i), "an element is an object")
		}
		x, hasX := m["x"]
		y, hasY := m["y"]
		if i == 0 && hasX && hasY {
			var p engine.Point
			if json.Unmarshal(x, &p.X) == nil && json.Unmarshal(y, &p.Y) == nil {
				first = &p
			}
		}
		if !hasX {
			m["x"] = json.RawMessage("0")
		}
		if !hasY {
			m["y"] = json.RawMessage("0")
		}
		out[i], _ = json.Marshal(m)
	}
	return out, first, nil
}

// newStackID is a fresh stack id.
func newStackID() string { return taggedID("stk_") }

// taggedID is a fresh structure id: prefix and 8 random letters and
// digits that read unambiguously.
func taggedID(prefix string) string {
	const letters = "abcdefghijkmnpqrstuvwxyz23456789"
	b := []byte(prefix)
	for range 8 {
		b = append(b, letters[rand.IntN(len(letters))])
	}
	return string(b)
}
