package scene

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Parse reads a scene. It accepts every well-formed Excalidraw scene
// within the limits, including the damage real editors leave behind (the
// store must be able to open any file a user saved), and rejects only:
//
//   - bytes over Limits.MaxSceneBytes (too_large);
//   - invalid JSON, duplicate keys, prototype-polluting keys, nesting over
//     Limits.MaxDepth (invalid_scene, with details pointer and offset);
//   - a top level that is not an object with type "excalidraw", elements
//     that is not an array of objects each with a string type, appState
//     or files that is not an object (invalid_scene, details pointer);
//   - more live elements than Limits.MaxElements (too_many_elements);
//   - attachments that are not valid image data URLs (invalid_scene),
//     too many or too large, or a text over Limits.MaxTextLength
//     (too_large).
//
// The document's version is not checked: like Excalidraw 0.18.1, whose
// loader (isValidExcalidrawData) looks only at type, elements and
// appState, Parse reads a scene of any version, or none. An older version
// (1, in early files) differs only in element fields that restore
// migrates; a newer one is read for what it holds, which is kept whether
// or not this package knows it. Either way [Validate] warns
// (document_version) and [Document.Marshal] writes version 2, the format
// a normalized document is in.
//
// Unsupported element types, broken references and bad field values are
// kept; [Validate] reports them and [ParseStrict] rejects them.
func Parse(data []byte, lim Limits) (*Document, error) {
	lim = lim.Effective()
	root, fail := decodeRoot(data, lim)
	if fail != nil {
		return nil, fail.err()
	}
	doc, diags := fromRoot(root)
	if len(diags) > 0 {
		return nil, diags[0].Err()
	}
	if err := admit(doc, lim); err != nil {
		return nil, err
	}
	doc.readBytes = len(data)
	return doc, nil
}

// admit runs the checks every stored scene must pass, whatever else is
// wrong with it: elements are objects with a type, the limits hold, the
// attachments are images.
func admit(d *Document, lim Limits) error {
	v := newValidator(d, lim)
	v.checkShapes()
	v.checkLimits()
	v.checkAttachments()
	if diag, ok := v.firstError(); ok {
		return diag.Err()
	}
	return nil
}

// decodeFailure is a document that could not be decoded at all.
type decodeFailure struct {
	diag   Diagnostic
	offset int
}

func (f *decodeFailure) err() *sceneerr.Error {
	return f.diag.Err().With("offset", f.offset)
}

// decodeRoot decodes the bytes under the limits and checks that the top
// level is an object.
func decodeRoot(data []byte, lim Limits) (*ojson.Object, *decodeFailure) {
	if int64(len(data)) > lim.MaxSceneBytes {
		return nil, &decodeFailure{diag: overLimit(CodeTooLarge, "", "", int64(len(data)), lim.MaxSceneBytes)}
	}
	v, err := ojson.Decode(data, ojson.Limits{MaxBytes: lim.MaxSceneBytes, MaxDepth: lim.MaxDepth})
	if err != nil {
		return nil, decodeError(err)
	}
	root, ok := v.(*ojson.Object)
	if !ok {
		return nil, &decodeFailure{diag: Diagnostic{
			Code: CodeInvalidDocument, Severity: SeverityError, Message: "the top level is not a JSON object",
		}}
	}
	return root, nil
}

// decodeError maps an ojson rejection to its diagnostic code.
func decodeError(err error) *decodeFailure {
	var oe *ojson.Error
	if !errors.As(err, &oe) {
		return &decodeFailure{diag: Diagnostic{Code: CodeInvalidJSON, Severity: SeverityError, Message: err.Error()}}
	}
	code := CodeInvalidJSON
	switch {
	case errors.Is(err, ojson.ErrDuplicateKey):
		code = CodeDuplicateKey
	case errors.Is(err, ojson.ErrUnsafeKey):
		code = CodeUnsafeKey
	case errors.Is(err, ojson.ErrTooDeep):
		code = CodeTooDeep
	case errors.Is(err, ojson.ErrTooLarge):
		code = CodeTooLarge
	case errors.Is(err, ojson.ErrNotObject):
		code = CodeInvalidDocument
	}
	msg := oe.Code.Error()
	if oe.Detail != "" {
		msg += ": " + oe.Detail
	}
	msg += " (byte " + strconv.Itoa(oe.Offset) + ")"
	return &decodeFailure{diag: Diagnostic{Code: code, Severity: SeverityError, Message: msg, Pointer: oe.Pointer}, offset: oe.Offset}
}

// fromRoot builds a document from the decoded top level, reporting what
// makes it something other than an Excalidraw scene. It always returns
// a document (for ValidateBytes to go on with): members of the wrong type
// are replaced by empty ones, and entries of elements that are not objects
// by nil, so that element positions, and the pointers built from them,
// stay those of the file.
func fromRoot(root *ojson.Object) (*Document, []Diagnostic) {
	doc := &Document{members: ojson.NewSized(root.Len()), elements: []*ojson.Object{}, appState: ojson.New(), files: ojson.New()}
	var diags []Diagnostic
	bad := func(ptr, format string, args ...any) {
		diags = append(diags, Diagnostic{Code: CodeInvalidDocument, Severity: SeverityError, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	switch t, has := root.Get(keyType); {
	case !has:
		bad(pointer(keyType), `type is missing (an Excalidraw scene has type "excalidraw")`)
	case t != "excalidraw":
		bad(pointer(keyType), `type is not "excalidraw" (it is %s)`, describe(t, true))
	}
	for _, k := range root.Keys() {
		v, _ := root.Get(k)
		switch k {
		case keyElements:
			doc.members.Set(k, nil)
			arr, ok := v.([]any)
			if !ok && v != nil {
				bad(pointer(k), "elements is not an array")
				continue
			}
			doc.elements = make([]*ojson.Object, len(arr))
			for i, e := range arr {
				doc.elements[i], _ = e.(*ojson.Object)
			}
		case keyAppState:
			doc.members.Set(k, nil)
			if o, ok := v.(*ojson.Object); ok {
				doc.appState = o
			} else if v != nil {
				bad(pointer(k), "appState is not an object")
			}
		case keyFiles:
			doc.members.Set(k, nil)
			if o, ok := v.(*ojson.Object); ok {
				doc.files = o
			} else if v != nil {
				bad(pointer(k), "files is not an object")
			}
		default:
			doc.members.Set(k, v)
		}
	}
	return doc, diags
}

func mustGet(o *ojson.Object, k string) any {
	v, _ := o.Get(k)
	return v
}

// describe names a JSON value for a message without quoting all of it.
func describe(v any, present bool) string {
	if !present {
		return "nothing"
	}
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		if len(t) > 40 {
			t = t[:40] + "…"
		}
		return strconv.Quote(t)
	case bool:
		return strconv.FormatBool(t)
	case []any:
		return "an array"
	case *ojson.Object:
		return "an object"
	}
	if f, st := toNumber(v); st == numOK {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return "a number out of range"
}
