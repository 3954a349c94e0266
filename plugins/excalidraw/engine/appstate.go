package engine

import (
	"encoding/json"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// appStateKeys are the appState members a caller may set: the only ones
// the contract round-trips (2.3). Others are refused rather than silently
// dropped, so an agent learns that e.g. zoom is not persisted.
var appStateKeys = map[string]bool{"viewBackgroundColor": true, "gridSize": true, "gridModeEnabled": true}

// MergeAppState merges the appState subset in raw (a JSON object; empty
// or null is none) over the document's appState. pointer locates raw in
// the caller's request for error details. Nothing is merged unless every
// member is one the contract keeps (viewBackgroundColor, gridSize,
// gridModeEnabled), every value passes scene.CheckAppState, the check
// every write applies (Validate only warns about such values, since
// stored files must stay readable), and viewBackgroundColor is a colour
// the editor draws (build.ValidColor); a refusal is invalid_operation at
// the member, under pointer.
func (tx *Txn) MergeAppState(raw json.RawMessage, pointer string) error {
	return tx.do(func() error { return mergeAppState(tx.doc, raw, pointer) })
}

func mergeAppState(doc *scene.Document, raw json.RawMessage, pointer string) error {
	obj, err := decodeObject(raw, pointer)
	if err != nil || obj == nil {
		return err
	}
	for _, k := range obj.Keys() {
		if !appStateKeys[k] {
			return opError(pointer+"/"+jsonpointer.Escape(k), "appState member %q is not supported; allowed: viewBackgroundColor, gridSize, gridModeEnabled", k)
		}
	}
	if d, bad := scene.CheckAppState(obj); bad {
		// d.Pointer is /appState/<member>: the same member under pointer.
		return opError(pointer+strings.TrimPrefix(d.Pointer, "/appState"), "%s", d.Message)
	}
	if c, ok := obj.String("viewBackgroundColor"); ok && !build.ValidColor(c) {
		return opError(pointer+"/viewBackgroundColor", "viewBackgroundColor: %s", build.ColorProblem(c))
	}
	for _, k := range obj.Keys() {
		v, _ := obj.Get(k)
		doc.AppState().Set(k, v)
	}
	return nil
}

// decodeObject decodes an optional JSON object in order (ojson refuses
// duplicate and prototype-polluting keys). Empty or null input is nil.
func decodeObject(raw json.RawMessage, pointer string) (*ojson.Object, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	v, err := ojson.Decode(raw, ojson.Limits{})
	if err != nil {
		return nil, opError(pointer, "not valid JSON: %v", err)
	}
	obj, ok := v.(*ojson.Object)
	if !ok {
		return nil, opError(pointer, "must be an object")
	}
	return obj, nil
}

// SetFiles puts the attachments in raw (a JSON object of file objects
// keyed by file id; empty or null is none) into the document, replacing
// those of the same ids, so that image elements added after may name
// them. pointer locates raw in the caller's request for error details.
// Their content (image data URLs, sizes, counts) is checked by
// scene.Validate and the codec when the document is finished.
func (tx *Txn) SetFiles(raw json.RawMessage, pointer string) error {
	return tx.do(func() error { return setFiles(tx.doc, raw, pointer) })
}

func setFiles(doc *scene.Document, raw json.RawMessage, pointer string) error {
	obj, err := decodeObject(raw, pointer)
	if err != nil || obj == nil {
		return err
	}
	for _, k := range obj.Keys() {
		v, _ := obj.Get(k)
		if _, ok := v.(*ojson.Object); !ok {
			return opError(pointer+"/"+jsonpointer.Escape(k), "file %q must be an object", k)
		}
		doc.Files().Set(k, v)
	}
	return nil
}

// fileIDs lists doc's attachments for build.Context.
func fileIDs(doc *scene.Document) map[string]bool {
	ids := map[string]bool{}
	for _, k := range doc.Files().Keys() {
		ids[k] = true
	}
	return ids
}
