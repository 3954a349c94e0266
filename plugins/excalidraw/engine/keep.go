package engine

import (
	"slices"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A keeper keeps one kind of structure in shape after an edit: a table's
// grid, a stack's gaps. It looks at the document as the edit left it (the
// Txn's bumped elements say what changed), moves or resizes what the
// structure needs, through the Txn so that every change is bumped, and
// returns the ids it changed. It must be idempotent: a document it keeps
// is one it leaves alone, so a second run returns nothing.
type keeper struct {
	// order runs keepers inner first: a table may be an item of a stack,
	// and the stack must see the table's final size.
	order int
	name  string
	keep  func(tx *Txn) ([]string, error)
}

// keepers are the structures the engine keeps; each file that defines a
// structure registers its keeper in an init (registerKeeper).
var keepers []keeper

// registerKeeper adds a structure's keeper. Called from init only.
func registerKeeper(order int, name string, keep func(tx *Txn) ([]string, error)) {
	keepers = append(keepers, keeper{order: order, name: name, keep: keep})
	sort.SliceStable(keepers, func(i, j int) bool { return keepers[i].order < keepers[j].order })
}

// Keep runs every structure's keeper after the edits of the transaction
// (a write's plan, or a person's save) and returns the ids they changed,
// in order and without repeats: the elements laid out again because
// something they belong with changed (a write reports them as
// relaidOut). A write calls it once, after its plan; a keeper's own
// changes are bumped like any edit's.
func (tx *Txn) Keep() ([]string, error) {
	var out []string
	err := tx.do(func() error {
		for _, k := range keepers {
			ids, err := k.keep(tx)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if !slices.Contains(out, id) {
					out = append(out, id)
				}
			}
		}
		return nil
	})
	return out, err
}

// MarkEdited records ids as changed before the transaction, by someone
// else (a person's save changed them in the editor): keepers treat them
// as they treat the elements the transaction's own edits changed
// (Changed), so a cell a person typed a longer text into re-lays its
// table. Unknown ids are ignored.
func (tx *Txn) MarkEdited(ids []string) {
	tx.index()
	if tx.edited == nil {
		tx.edited = map[*ojson.Object]bool{}
	}
	for _, id := range ids {
		if el := tx.byID.Get(id); el != nil {
			tx.edited[el] = true
		}
	}
}

// Changed reports the elements changed so far: those the transaction's
// edits bumped and those marked edited before it (MarkEdited). Keepers
// look at these to find the structures they must keep.
func (tx *Txn) Changed() map[*ojson.Object]bool {
	if len(tx.edited) == 0 {
		return tx.bumped
	}
	out := make(map[*ojson.Object]bool, len(tx.bumped)+len(tx.edited))
	for el := range tx.bumped {
		out[el] = true
	}
	for el := range tx.edited {
		out[el] = true
	}
	return out
}
