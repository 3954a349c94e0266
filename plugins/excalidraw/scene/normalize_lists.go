package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// boundLists tracks the boundElements lists the repair edits. For a long
// list it keeps the set of ids it names, so that adding thousands of
// arrows bound to one shape stays linear; and it remembers which lists
// this run made, so that it appends in place only to those (a list read
// from the caller may share its array with another element's).
type boundLists struct {
	sets  map[int]map[string]bool
	owned map[int]bool
}

// listed reports whether element j's boundElements, list, names id.
func (b *boundLists) listed(j int, list []any, id string) bool {
	if len(list) <= shortList {
		return listsID(list, id)
	}
	set, ok := b.sets[j]
	if !ok {
		set = make(map[string]bool, len(list))
		for _, e := range list {
			set[entryID(e)] = true
		}
		if b.sets == nil {
			b.sets = map[int]map[string]bool{}
		}
		b.sets[j] = set
	}
	return set[id]
}

// add appends an entry naming id to element j's boundElements, list.
func (b *boundLists) add(el *ojson.Object, j int, list []any, entry *ojson.Object, id string) {
	if !b.owned[j] {
		list = append(make([]any, 0, len(list)+4), list...)
		b.own(j)
	}
	el.Set("boundElements", append(list, entry))
	if set, ok := b.sets[j]; ok {
		set[id] = true
	}
}

// replace sets element j's boundElements to a list the repair made.
func (b *boundLists) replace(el *ojson.Object, j int, list []any) {
	el.Set("boundElements", list)
	delete(b.sets, j)
	b.own(j)
}

func (b *boundLists) own(j int) {
	if b.owned == nil {
		b.owned = map[int]bool{}
	}
	b.owned[j] = true
}
