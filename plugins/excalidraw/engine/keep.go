package engine

import (
	"slices"
	"sort"
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
