package engine

import (
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Selection is "ids or a target": the elements most element edits act
// on, as the tools' arguments name them.
type Selection struct {
	IDs    []string      `json:"ids,omitempty"`
	Target *query.Target `json:"target,omitempty"`
}

// Resolve turns s into ids on the transaction's document as it is now (a
// later edit of the transaction sees what earlier ones made); required
// says an empty selection is an error. Errors point at /ids or /target.
func (tx *Txn) Resolve(s Selection, required bool) ([]string, error) {
	if len(s.IDs) > 0 && s.Target != nil {
		return nil, opError("/target", "give ids or target, not both")
	}
	if s.Target == nil {
		if required && len(s.IDs) == 0 {
			return nil, opError("/ids", "give ids or a target to say which elements")
		}
		return s.IDs, nil
	}
	els, err := query.Select(tx.doc.Elements(), *s.Target)
	if err != nil {
		return nil, prefixPointer(err, "/target")
	}
	ids := make([]string, 0, len(els))
	for _, el := range els {
		if id, _ := el.String("id"); id != "" {
			ids = append(ids, id)
		}
	}
	if required && len(ids) == 0 {
		return nil, sceneerr.New(sceneerr.NotFound, "the target selects no element").With("pointer", "/target")
	}
	return ids, nil
}

// Targets are the selectors s holds (none, or its target), for a caller
// to resolve what a target takes from outside the scene (query.Target's
// After) before the plan runs.
func (s Selection) Targets() []*query.Target {
	if s.Target == nil {
		return nil
	}
	return []*query.Target{s.Target}
}

// Pointer is where errors about the ids s resolves to point: the ids
// array, or the target.
func (s Selection) Pointer() string {
	if s.Target != nil {
		return "/target"
	}
	return "/ids"
}

// prefixPointer puts pointer before a scene error's own pointer.
func prefixPointer(err error, pointer string) error {
	if se, ok := err.(*sceneerr.Error); ok {
		p, _ := se.Details["pointer"].(string)
		return se.With("pointer", pointer+p)
	}
	return err
}
