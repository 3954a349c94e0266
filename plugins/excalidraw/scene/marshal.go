package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// Marshal writes the document as Excalidraw saves it (JSON.stringify with
// a two-space indent, no trailing newline). Document-level members keep
// the order they were read in, unknown ones included; the version is
// [Version] whatever was read (a document read without one gets it right
// after type, where Excalidraw writes it); appState is reduced to the
// three members the contract round-trips; elements are written as they
// are, every unknown field in place. A document read without elements or
// appState gets them appended; files is written when it was read or is
// not empty.
func (d *Document) Marshal() ([]byte, error) {
	out := ojson.NewSized(d.members.Len() + 4)
	for _, k := range d.members.Keys() {
		switch k {
		case keyType:
			out.Set(k, mustGet(d.members, k))
			if !d.members.Has(keyVersion) {
				out.Set(keyVersion, versionValue)
			}
		case keyVersion:
			out.Set(k, versionValue)
		case keyElements:
			out.Set(k, d.elementValues())
		case keyAppState:
			out.Set(k, exportAppState(d.appState))
		case keyFiles:
			out.Set(k, d.filesValue())
		default:
			out.Set(k, mustGet(d.members, k))
		}
	}
	if !out.Has(keyVersion) {
		out.Set(keyVersion, versionValue)
	}
	if !out.Has(keyElements) {
		out.Set(keyElements, d.elementValues())
	}
	if !out.Has(keyAppState) {
		out.Set(keyAppState, exportAppState(d.appState))
	}
	if !out.Has(keyFiles) && d.files != nil && d.files.Len() > 0 {
		out.Set(keyFiles, d.files)
	}
	return ojson.AppendIndent(make([]byte, 0, d.sizeHint()), out)
}

// sizeHint guesses the encoded size: what was read, or a typical element
// size times the count, so the output buffer rarely has to grow (and is
// not much larger than needed: it is zeroed when allocated).
func (d *Document) sizeHint() int {
	if d.readBytes > 0 {
		return max(d.readBytes+d.readBytes/8, 512*len(d.elements)) + 4096
	}
	return 1024*len(d.elements) + 4096
}

func (d *Document) elementValues() []any {
	vals := make([]any, len(d.elements))
	for i, el := range d.elements {
		vals[i] = el
	}
	return vals
}

func (d *Document) filesValue() *ojson.Object {
	if d.files == nil {
		return ojson.New()
	}
	return d.files
}
