package scene

import (
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Severity says whether a diagnostic makes a scene invalid.
//
// The rule: a problem is a warning when Excalidraw's own restore step
// (data/restore.ts, run on every file the editor opens) repairs it
// deterministically without losing anything the user drew: a missing or
// null field it fills with a default, an index it regenerates, a
// negative size it normalizes, a stale back-reference in boundElements it
// drops, a tombstone still referenced. A problem is an error when it loses
// or corrupts data or breaks a reference: a value of the wrong type that
// restore keeps as is (and the editor then mis-renders or crashes on), a
// value out of range, a duplicate or missing id (restore would invent a
// random one on every load), a forward reference (arrow binding,
// containerId, frameId, image fileId) to an element or file that does not
// exist, an unsupported element type (restore drops it), a bad attachment,
// or a limit of the contract exceeded.
type Severity string

// The severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Diagnostic is one problem found in a scene. Its JSON form uses the Go
// field names, as the contract's API listing does.
type Diagnostic struct {
	Code      string   `json:"code"` // one of the Code constants
	Severity  Severity `json:"severity"`
	Message   string   `json:"message"`
	ElementID string   `json:"elementId,omitempty"`
	// Pointer is the JSON pointer (RFC 6901) of the offending value in
	// the document ("" for the document itself). For a missing member it
	// points where the member should be.
	Pointer string `json:"pointer"`
	// Count is how many elements the diagnostic stands for when it
	// stands for more than one: a missing_field warning is one per field
	// per scene, its ElementID and Pointer the first element's.
	Count int `json:"count,omitempty"`
	// limit is set on a diagnostic of a limit exceeded, so that Err can
	// name the limit in its details.
	limit limitHit
}

// limitHit is a limit a scene exceeds: which, its value, the scene's.
type limitHit struct {
	name        sceneerr.Limit
	actual, max int64
}

// limitOf names the limit behind each limit diagnostic code.
var limitOf = map[string]sceneerr.Limit{
	CodeTooLarge:        sceneerr.MaxSceneBytes,
	CodeTooManyElements: sceneerr.MaxElements,
	CodeTooManyFiles:    sceneerr.MaxFiles,
	CodeFilesTooLarge:   sceneerr.MaxFileBytes,
	CodeTextTooLong:     sceneerr.MaxTextLength,
}

// overLimit is the diagnostic of a limit exceeded: code is one of
// limitOf's (which names the limit), actual the scene's value, max the
// limit's; the message is [sceneerr.Limit.Describe]'s words.
func overLimit(code, ptr, id string, actual, max int64) Diagnostic {
	l := limitOf[code]
	return Diagnostic{Code: code, Severity: SeverityError, Message: l.Describe(actual, max), ElementID: id, Pointer: ptr,
		limit: limitHit{name: l, actual: actual, max: max}}
}

// Diagnostic codes. They are stable: tools and clients match on them.
const (
	// CodeInvalidJSON: the bytes are not JSON (error).
	CodeInvalidJSON = "invalid_json"
	// CodeDuplicateKey: an object has the same member twice; readers
	// disagree on which one wins (error).
	CodeDuplicateKey = "duplicate_key"
	// CodeUnsafeKey: a member named __proto__, constructor or prototype,
	// which would pollute a JavaScript prototype (error).
	CodeUnsafeKey = "unsafe_key"
	// CodeTooDeep: nesting beyond Limits.MaxDepth (error).
	CodeTooDeep = "too_deep"
	// CodeTooLarge: the document is over Limits.MaxSceneBytes (error).
	CodeTooLarge = "too_large"
	// CodeInvalidDocument: the top level is not an Excalidraw scene: not
	// an object, type not "excalidraw", or elements, appState or files of
	// the wrong JSON type (error). The version is not what makes a scene;
	// see CodeDocumentVersion.
	CodeInvalidDocument = "invalid_document"
	// CodeInvalidElement: an entry of elements is not an object (error).
	CodeInvalidElement = "invalid_element"
	// CodeMissingField: a field is absent or null. An error for the
	// fields restore cannot default (id, type, a text's fontSize and
	// fontFamily, a freedraw's points); otherwise one warning per field
	// that restore fills in, counting the elements without it and naming
	// a few.
	CodeMissingField = "missing_field"
	// CodeInvalidField: a field of the wrong JSON type or shape, which
	// restore keeps as is (error). A warning for what restore or the
	// renderer copes with: a string outside the known values (fillStyle,
	// strokeStyle, textAlign, verticalAlign, image status) or an unknown
	// fontFamily, a boundElements entry of unknown type or listed twice, a
	// non-numeric pressure, points with a third coordinate, a line or
	// arrow with fewer than two points, a binding on a line, and an
	// appState member a write may not store (see CheckAppState, which
	// writes apply as an error).
	CodeInvalidField = "invalid_field"
	// CodeOutOfBounds: a number that overflows, a coordinate or size
	// beyond ±1e7, an opacity outside 0–100, a negative stroke width, a
	// font size or line height ≤ 0 (error); a negative width or height,
	// which restore normalizes (warning).
	CodeOutOfBounds = "out_of_bounds"
	// CodeDuplicateID: two elements share an id (error).
	CodeDuplicateID = "duplicate_id"
	// CodeUnsupportedType: an element type the plugin does not support
	// (error; a warning for the legacy "draw" and "selection" types that
	// restore migrates or drops).
	CodeUnsupportedType = "unsupported_type"
	// CodeTextTooLong: a text element over Limits.MaxTextLength (error).
	CodeTextTooLong = "text_too_long"
	// CodeInvalidIndex: an index that is not a fractional index (warning:
	// restore regenerates it).
	CodeInvalidIndex = "invalid_index"
	// CodeIndexOrder: an index not greater than the previous valid one in
	// array order, deleted elements included, as Excalidraw's
	// validateFractionalIndices checks (warning: restore regenerates it).
	CodeIndexOrder = "index_order"
	// CodeDanglingBinding: an arrow's start/endBinding or a text's
	// containerId names an element that does not exist (error) or is
	// deleted (warning); a boundElements entry names an element that does
	// not exist or is deleted (warning: restore drops the entry).
	CodeDanglingBinding = "dangling_binding"
	// CodeOneSidedBinding: the two ends of a binding disagree: an arrow
	// binds X but X's boundElements does not list it, X lists an arrow
	// that does not bind X, a text's container does not list it, or a
	// container lists a text whose containerId is elsewhere (warning: the
	// drawing is intact; restore or the editor reconcile it).
	CodeOneSidedBinding = "one_sided_binding"
	// CodeInvalidContainer: a text's containerId names an element that
	// cannot hold a label (only rectangle, diamond, ellipse and arrow can)
	// (error).
	CodeInvalidContainer = "invalid_container"
	// CodeDanglingFrame: frameId names an element that does not exist or
	// is not a frame (error), or a deleted frame (warning).
	CodeDanglingFrame = "dangling_frame"
	// CodeInvalidAttachment: a files entry that is not an image data URL
	// with valid base64, whose id differs from its key, or whose mimeType
	// disagrees with the data URL (error).
	CodeInvalidAttachment = "invalid_attachment"
	// CodeMissingFile: an image element whose fileId is null or names no
	// attachment (error; a warning for a deleted image, since Excalidraw
	// drops the files of deleted images when it saves).
	CodeMissingFile = "missing_file"
	// CodeUnusedFile: an attachment no live image uses; Excalidraw drops
	// it on its next save (warning).
	CodeUnusedFile = "unused_file"
	// CodeTooManyElements: more live elements than Limits.MaxElements
	// (error; tombstones are not counted).
	CodeTooManyElements = "too_many_elements"
	// CodeTooManyFiles: more attachments than Limits.MaxFiles (error).
	CodeTooManyFiles = "too_many_files"
	// CodeFilesTooLarge: attachments' data URLs longer in total than
	// Limits.MaxFileBytes (error).
	CodeFilesTooLarge = "files_too_large"
	// CodeDocumentVersion: the document's version is not 2 (an older
	// file, a newer one, or none at all). Excalidraw does not check it and
	// neither does [Parse]; the scene is written as version 2 (warning).
	CodeDocumentVersion = "document_version"
)

// Codes lists every diagnostic code, for tests and documentation.
func Codes() []string {
	return []string{
		CodeInvalidJSON, CodeDuplicateKey, CodeUnsafeKey, CodeTooDeep, CodeTooLarge,
		CodeInvalidDocument, CodeInvalidElement, CodeMissingField, CodeInvalidField,
		CodeOutOfBounds, CodeDuplicateID, CodeUnsupportedType, CodeTextTooLong,
		CodeInvalidIndex, CodeIndexOrder, CodeDanglingBinding, CodeOneSidedBinding,
		CodeInvalidContainer, CodeDanglingFrame, CodeInvalidAttachment, CodeMissingFile,
		CodeUnusedFile, CodeTooManyElements, CodeTooManyFiles, CodeFilesTooLarge,
		CodeDocumentVersion,
	}
}

// ErrorCode maps a diagnostic code to the plugin's error code, so a scene
// rejected for a diagnostic fails with the code the contract names. A
// limit's diagnostic fails with that limit's code (too_many_elements for
// maxElements, too_large for the others; see [sceneerr.Limit]).
func ErrorCode(code string) sceneerr.Code {
	if l, ok := limitOf[code]; ok {
		return l.Code()
	}
	switch code {
	case CodeUnsupportedType:
		return sceneerr.UnsupportedElement
	case CodeDuplicateID:
		return sceneerr.DuplicateID
	case CodeDanglingBinding, CodeDanglingFrame, CodeInvalidContainer, CodeMissingFile:
		return sceneerr.InvalidReference
	}
	return sceneerr.InvalidScene
}

// Err turns the diagnostic into the plugin's error type, with the pointer,
// the element id and the diagnostic code as details. A limit exceeded is
// [sceneerr.OverLimit]'s error, which names the limit in its message and
// details.
func (d Diagnostic) Err() *sceneerr.Error {
	e := sceneerr.New(ErrorCode(d.Code), "%s", d.Message)
	if l := d.limit; l.name != "" {
		e = sceneerr.OverLimit(l.name, l.actual, l.max)
	}
	e = e.With("pointer", d.Pointer).With("diagnostic", d.Code)
	if d.ElementID != "" {
		e = e.With("elementId", d.ElementID)
	}
	return e
}

// String formats the diagnostic for logs.
func (d Diagnostic) String() string {
	s := fmt.Sprintf("%s %s at %q: %s", d.Severity, d.Code, d.Pointer, d.Message)
	if d.ElementID != "" {
		s += " (element " + d.ElementID + ")"
	}
	return s
}
