package service

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// onceEach makes validate_scene say each binding fault once. The
// validator and the lint both check bindings and the boundElements lists
// that record them: a leftover entry is the validator's dangling_binding
// or one_sided_binding warning and the lint's stale_bound_entry, a
// binding its target does not list is one_sided_binding in both. The
// lint says every leftover entry of a scene in one stale_bound_entry
// finding, so when it has one the validator's warnings about entries all
// go. Any other fault
// the validator calls an error stays a diagnostic (it makes the scene
// invalid) and the lint's finding about it is dropped; a warning is left
// to the lint, whose codes name the fault and whose findings carry the
// fix (unbind, link, unlink), and dropped from the diagnostics.
func onceEach(doc *scene.Document, r *scene.Report, fs []lint.Finding) []lint.Finding {
	diagFault := make([]string, len(r.Diagnostics))
	errs, warns := map[string]bool{}, map[string]bool{}
	for i, d := range r.Diagnostics {
		k := diagnosticFault(doc, d)
		diagFault[i] = k
		switch {
		case k == "":
		case d.Severity == scene.SeverityError:
			errs[k] = true
		default:
			warns[k] = true
		}
	}
	if len(errs)+len(warns) == 0 {
		return fs
	}
	linted := map[string]bool{}
	entries := false // the lint's one finding about leftover entries
	kept := fs[:0:0]
	for _, f := range fs {
		entries = entries || f.Code == lint.CodeStaleBoundEntry
		k := findingFault(f)
		if k != "" && errs[k] {
			continue
		}
		if k != "" {
			linted[k] = true
		}
		kept = append(kept, f)
	}
	diags := r.Diagnostics[:0:0]
	for i, d := range r.Diagnostics {
		if k := diagFault[i]; k != "" && d.Severity != scene.SeverityError && (linted[k] || entries && strings.HasPrefix(k, faultEntry+"|")) {
			continue
		}
		diags = append(diags, d)
	}
	r.Diagnostics = diags
	return kept
}

// Kinds of binding fault, as onceEach matches them.
const (
	faultEntry    = "entry"    // boundElements lists what is missing, deleted or not bound back
	faultDangling = "dangling" // a binding, containerId or frameId names what is missing or deleted
	faultOneSided = "onesided" // a binding or containerId whose target does not list it
)

// findingFault is the fault a lint finding reports ("" when it is not
// about one binding: stale_bound_entry is about all the leftover entries
// of a scene): its kind and the two ids.
func findingFault(f lint.Finding) string {
	var kind string
	switch f.Code {
	case lint.CodeDanglingBinding:
		kind = faultDangling
	case lint.CodeOneSidedBinding:
		kind = faultOneSided
	default:
		return ""
	}
	switch len(f.IDs) {
	case 1: // an element bound to itself
		return fault(kind, f.IDs[0], f.IDs[0])
	case 2:
		return fault(kind, f.IDs[0], f.IDs[1])
	}
	return ""
}

// diagnosticFault is the fault a validator diagnostic reports, read from
// the member its pointer names ("" when it is not about a binding).
func diagnosticFault(doc *scene.Document, d scene.Diagnostic) string {
	if d.Code != scene.CodeDanglingBinding && d.Code != scene.CodeOneSidedBinding && d.Code != scene.CodeDanglingFrame {
		return ""
	}
	tokens := strings.Split(d.Pointer, "/")
	if len(tokens) < 4 || tokens[0] != "" || tokens[1] != "elements" {
		return ""
	}
	i, err := strconv.Atoi(tokens[2])
	els := doc.Elements()
	if err != nil || i < 0 || i >= len(els) || els[i] == nil {
		return ""
	}
	el := els[i]
	id, _ := el.String("id")
	var target string
	kind := faultDangling
	if d.Code == scene.CodeOneSidedBinding {
		kind = faultOneSided
	}
	switch field := tokens[3]; field {
	case "boundElements", "boundElementIds":
		list, _ := el.Array(field)
		if len(tokens) != 5 {
			return ""
		}
		j, err := strconv.Atoi(tokens[4])
		if err != nil || j < 0 || j >= len(list) {
			return ""
		}
		switch entry := list[j].(type) {
		case *ojson.Object:
			target, _ = entry.String("id")
		case string:
			target = entry
		}
		kind = faultEntry
	case "startBinding", "endBinding":
		b, _ := el.Object(field)
		if b == nil {
			return ""
		}
		target, _ = b.String("elementId")
	case "containerId", "frameId":
		target, _ = el.String(field)
	default:
		return ""
	}
	if id == "" || target == "" {
		return ""
	}
	return fault(kind, id, target)
}

// fault keys a fault by its kind and its two ids, in either order.
func fault(kind, a, b string) string {
	ids := []string{a, b}
	slices.Sort(ids)
	return kind + "|" + ids[0] + "|" + ids[1]
}
