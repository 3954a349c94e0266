package scene

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// DefaultSource is the `source` of documents this plugin creates.
const DefaultSource = "https://github.com/dshgo/dsh"

// Version is the document version this package writes, that of the files
// Excalidraw 0.18 saves (its VERSIONS.excalidraw). Documents of any other
// version are read (see [Parse]) and written as this one.
const Version = 2

// versionValue is Version as the JSON number Marshal writes.
var versionValue = json.Number(strconv.Itoa(Version))

// Document-level member names.
const (
	keyType     = "type"
	keyVersion  = "version"
	keySource   = "source"
	keyElements = "elements"
	keyAppState = "appState"
	keyFiles    = "files"
)

// Document is a scene in memory. Elements, appState and files are held
// apart so that callers can work on them; every other document-level
// member (type, version, source and anything unknown) stays in members, in
// the order it was read, so that writing the scene back keeps it.
type Document struct {
	// members are the document-level members in order. The values stored
	// under elements, appState and files are stale placeholders: the
	// fields below are the truth, substituted on Marshal.
	members  *ojson.Object
	elements []*ojson.Object
	appState *ojson.Object
	files    *ojson.Object
	// readBytes is the size of the input Parse read, a hint for Marshal.
	readBytes int
	// enc is the encoding of the sealed document this one is (or was
	// forked from): see Seal and Fork; asSealed is true for the sealed
	// one itself until SetElements or Own.
	enc      *encoding
	asSealed bool
}

// NewDocument returns an empty scene with Excalidraw's member order and the
// contract's appState defaults.
func NewDocument() *Document {
	m := ojson.NewSized(6)
	m.Set(keyType, "excalidraw")
	m.Set(keyVersion, versionValue)
	m.Set(keySource, DefaultSource)
	m.Set(keyElements, nil)
	m.Set(keyAppState, nil)
	m.Set(keyFiles, nil)
	return &Document{members: m, elements: []*ojson.Object{}, appState: defaultAppState(), files: ojson.New()}
}

// Elements returns the elements in array (z-) order, deleted tombstones
// included. The slice and the objects are the document's own: edits to the
// objects are edits to the scene.
func (d *Document) Elements() []*ojson.Object { return d.elements }

// SetElements replaces the elements. The document keeps the slice.
func (d *Document) SetElements(els []*ojson.Object) {
	if els == nil {
		els = []*ojson.Object{}
	}
	d.elements, d.asSealed = els, false
}

// ElementCount is the length of the elements array, deleted tombstones
// included. Tombstones are counted because they are stored: the count is
// then a pure function of the bytes, which the store relies on to verify a
// write by reading it back.
func (d *Document) ElementCount() int { return len(d.elements) }

// Find returns the position and object of the first element with the id,
// or -1 and nil.
func (d *Document) Find(id string) (int, *ojson.Object) {
	for i, el := range d.elements {
		if el == nil {
			continue
		}
		if s, _ := el.String("id"); s == id {
			return i, el
		}
	}
	return -1, nil
}

// Files returns the attachments object, keyed by file id. It is the
// document's own.
func (d *Document) Files() *ojson.Object { return d.files }

// AppState returns the appState object, the document's own. It holds
// whatever was read; [Document.Marshal] writes only the three members the
// contract round-trips.
func (d *Document) AppState() *ojson.Object { return d.appState }

// Keys lists the document-level members in the order they are written.
// The slice is the document's own: do not modify it.
func (d *Document) Keys() []string { return d.members.Keys() }

// Field returns a document-level member other than elements, appState and
// files (use their accessors), such as "source" or an unknown member.
func (d *Document) Field(key string) (any, bool) {
	if reservedMember(key) {
		return nil, false
	}
	return d.members.Get(key)
}

// SetField sets a document-level member. type, version, elements, appState
// and files cannot be set this way, nor keys that would pollute a
// JavaScript prototype.
func (d *Document) SetField(key string, v any) error {
	if reservedMember(key) || key == keyType || key == keyVersion {
		return fmt.Errorf("scene: document member %q cannot be set as a field", key)
	}
	if ojson.IsUnsafeKey(key) {
		return fmt.Errorf("scene: unsafe member name %q", key)
	}
	d.members.Set(key, v)
	return nil
}

// DeleteField removes a document-level member set with SetField.
func (d *Document) DeleteField(key string) {
	if reservedMember(key) || key == keyType || key == keyVersion {
		return
	}
	d.members.Delete(key)
}

func reservedMember(k string) bool {
	return k == keyElements || k == keyAppState || k == keyFiles
}

// Clone is a deep copy, owning all of its elements (none is frozen).
func (d *Document) Clone() *Document {
	els := make([]*ojson.Object, len(d.elements))
	for i, el := range d.elements {
		els[i] = el.Clone()
	}
	return &Document{members: d.members.Clone(), elements: els, appState: d.appState.Clone(), files: d.files.Clone(), readBytes: d.readBytes}
}
