package service

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
)

// edit is one Apply's work on a document.
type edit struct {
	s       *Service
	doc     *scene.Document
	byID    map[string]*ojson.Object
	now     int64
	summary OpsSummary
	named   map[string]bool // ids the operations named, for the summary
	bumped  map[*ojson.Object]bool
}

func (s *Service) newEdit(doc *scene.Document) *edit {
	return &edit{s: s, doc: doc, now: s.now().UnixMilli(), named: map[string]bool{}, bumped: map[*ojson.Object]bool{},
		summary: OpsSummary{IDs: []string{}}}
}

// run applies the operations: adds together first, then the rest in order.
func (e *edit) run(ops []operation) error {
	added, err := e.addAll(ops)
	if err != nil {
		return err
	}
	e.index()
	k := 0
	for _, op := range ops {
		switch op.kind {
		case OpAdd:
			e.note(added[k])
			k++
		case OpUpdate:
			if err := e.update(op); err != nil {
				return err
			}
			e.summary.Updated++
			e.note(op.id)
		case OpDelete:
			if err := e.delete(op); err != nil {
				return err
			}
			e.summary.Deleted++
			e.note(op.id)
		}
	}
	return nil
}

func (e *edit) note(id string) {
	e.summary.IDs = append(e.summary.IDs, id)
	e.named[id] = true
}

// addAll builds every add in one build.Build call, so arrows can bind to
// each other's ids, and puts the results into the document: targets that
// gained a boundElements entry are replaced by Build's updated copies.
func (e *edit) addAll(ops []operation) ([]string, error) {
	var inputs []json.RawMessage
	var where []string
	for _, op := range ops {
		if op.kind == OpAdd {
			inputs = append(inputs, op.element)
			where = append(where, op.pointer+"/element")
		}
	}
	if len(inputs) == 0 {
		return nil, nil
	}
	res, err := e.s.build(inputs, e.doc)
	if err != nil {
		return nil, prefixBuildError(err, func(i int) string { return where[i] })
	}
	els := e.doc.Elements()
	for _, up := range res.Updated {
		id, _ := up.String("id")
		if i, _ := e.doc.Find(id); i >= 0 {
			els[i] = up
		}
	}
	e.doc.SetElements(append(els, res.Elements...))
	e.summary.Added = len(res.IDs)
	return res.IDs, nil
}

// index maps ids to elements (first occurrence wins, as Find does).
func (e *edit) index() {
	e.byID = make(map[string]*ojson.Object, len(e.doc.Elements()))
	for _, el := range e.doc.Elements() {
		if el == nil {
			continue
		}
		if id, ok := el.String("id"); ok && e.byID[id] == nil {
			e.byID[id] = el
		}
	}
}

// live returns the live element with the id, or not_found located at the
// operation's id.
func (e *edit) live(op operation) (*ojson.Object, error) {
	el := e.byID[op.id]
	if el == nil {
		return nil, sceneerr.New(sceneerr.NotFound, "no element with id %q", op.id).With("pointer", op.pointer+"/id").With("id", op.id)
	}
	if deleted(el) {
		return nil, sceneerr.New(sceneerr.NotFound, "element %q is deleted", op.id).With("pointer", op.pointer+"/id").With("id", op.id)
	}
	return el, nil
}

func deleted(el *ojson.Object) bool {
	d, _ := el.Bool("isDeleted")
	return d
}

// bump records a change to el the way Excalidraw's mutateElement does:
// version+1, a fresh versionNonce, updated now. Each element is bumped
// once per Apply however many operations touch it, so that one call is
// one version step, as one editor action is.
func (e *edit) bump(el *ojson.Object) {
	if e.bumped[el] {
		return
	}
	e.bumped[el] = true
	el.Set("version", int64(num(el, "version"))+1)
	el.Set("versionNonce", e.s.nonce())
	el.Set("updated", e.now)
}
