package scene

import (
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Validate checks a document against the contract and Excalidraw's rules
// and reports every problem it finds; it never fails and does not modify
// the document. See [Severity] for what makes a problem an error, and the
// Code constants for what each diagnostic means.
//
// In a forked document (see [Document.Fork]) the fields of the elements
// it shares with the sealed document, validated under the same limits
// when that was written, are not checked again: the errors are those a
// full check finds, the warnings about those fields are not repeated.
func Validate(d *Document, lim Limits) Report {
	if d == nil {
		d = NewDocument()
	}
	v := newValidator(d, lim.Effective())
	v.run()
	return v.report()
}

// Errors returns the errors Validate finds, at less cost, for a write
// that needs no more: the checks that find only warnings do not run, no
// statistics are computed, and in a forked document (see
// [Document.Fork]) sealed under the same limits, only the elements not
// shared with the sealed base and those related to them are checked
// again (see normalize_scope.go for why that suffices). Limits on counts
// (elements, attachments) are checked in full.
func Errors(d *Document, lim Limits) []Diagnostic {
	if d == nil {
		d = NewDocument()
	}
	lim = lim.Effective()
	v := newValidator(d, lim)
	v.errorsOnly = true
	if d.enc != nil && d.enc.limits == lim {
		v.dirty, v.scoped = d.forkDirty()
	}
	v.run()
	var errs []Diagnostic
	for _, dg := range v.diags {
		if dg.Severity == SeverityError {
			errs = append(errs, dg)
		}
	}
	return errs
}

// run runs the checks in order; the index check only warns, so Errors
// skips it.
func (v *validator) run() {
	v.checkVersion()
	v.checkShapes()
	v.checkLimits()
	v.checkTypes()
	v.checkIDs()
	v.checkFields()
	if !v.errorsOnly {
		v.checkIndices()
	}
	v.checkRefs()
	v.checkAttachments()
	v.checkImageFiles()
	v.checkAppState()
}

// ValidateBytes decodes and validates a serialized scene. Unlike [Parse]
// it never fails: a document that cannot be decoded yields a report with
// one diagnostic locating the problem, and a document with a bad top level
// is still checked as far as it can be.
func ValidateBytes(data []byte, lim Limits) Report {
	lim = lim.Effective()
	root, fail := decodeRoot(data, lim)
	if fail != nil {
		return Report{Diagnostics: []Diagnostic{fail.diag}, Stats: Stats{ByType: map[string]int{}}}
	}
	doc, diags := fromRoot(root)
	r := Validate(doc, lim)
	if len(diags) == 0 {
		return r
	}
	r.Valid = false // document-level diagnostics are all errors
	r.Diagnostics = append(diags, r.Diagnostics...)
	return r
}

// validator accumulates diagnostics over one document. Each check is a
// method in its own file; they share the id index built by checkIDs.
type validator struct {
	lim     Limits
	doc     *Document
	diags   []Diagnostic
	errors  int // error-severity diagnostics, listed or not
	omitted int // diagnostics past Limits.MaxDiagnostics
	// n is the number of elements; at(i) is element i's record, read
	// once: checks look these up often. A fork's records are the sealed
	// base's (info, shared, read only) where it holds the base's
	// element, the fork's own elsewhere (patched, tail); other documents
	// have all theirs in info.
	n       int
	info    []elemInfo
	raw     []elemRaw // per element of info, read with it (not for a fork)
	patched *patches  // a fork's own records below len(info), nil if none
	tail    []elemInfo
	tailRaw []elemRaw
	byID    map[string]int // element id → position of its first occurrence
	// bound caches, per element position, the ids its long boundElements
	// lists name, so that many arrows bound to one shape cost linear time.
	bound map[int]map[string]bool
	// errorsOnly skips what can only warn (Errors); scoped, with dirty,
	// checks references only around what a fork changed.
	errorsOnly bool
	scoped     bool
	dirty      []int
	cand       []int // the dirty elements and those related to them
}

// elemInfo caches what every check asks of an element.
type elemInfo struct {
	pos     int           // position in elements
	el      *ojson.Object // nil for an entry that is not an object
	id, typ string        // "" when absent or not a string
	deleted bool
	// visible is whether restore keeps the element (a restorable type,
	// not invisibly small): known for a sealed document's elements only
	// (sealInfo), for Normalize's scoped runs.
	visible bool
}

// elemRaw is what checkShapes, checkIDs and checkIndices ask of an
// element, read with its elemInfo (read says it was): a pass over
// thousands of elements that touches none of them costs a fraction of one
// that does.
type elemRaw struct {
	id, typ, index           any
	hasID, hasType, hasIndex bool
	read                     bool
}

func newValidator(d *Document, lim Limits) *validator {
	if e := d.enc; e != nil {
		return newForkValidator(d, e, lim)
	}
	info := make([]elemInfo, len(d.elements))
	raw := make([]elemRaw, len(d.elements))
	for i, el := range d.elements {
		info[i], raw[i] = readElement(i, el)
	}
	return &validator{lim: lim, doc: d, n: len(d.elements), info: info, raw: raw}
}

// newForkValidator is newValidator of a document forked from (or being)
// the sealed document e: the records of the elements it shares at their
// positions are e's, read through, not copied; only the others are read.
func newForkValidator(d *Document, e *encoding, lim Limits) *validator {
	nb := min(len(d.elements), len(e.info), len(e.els))
	v := &validator{lim: lim, doc: d, n: len(d.elements), info: e.info[:nb:nb]}
	for i := range nb {
		if el := d.elements[i]; el != e.els[i] || e.info[i].pos != i {
			if v.patched == nil {
				v.patched = &patches{at: make([]uint64, (nb+63)/64), info: map[int]elemInfo{}, raw: map[int]elemRaw{}}
			}
			in, r := readElement(i, el)
			v.patched.at[i/64] |= 1 << (i % 64)
			v.patched.info[i], v.patched.raw[i] = in, r
		}
	}
	if rest := len(d.elements) - nb; rest > 0 {
		v.tail, v.tailRaw = make([]elemInfo, rest), make([]elemRaw, rest)
		for k := range rest {
			v.tail[k], v.tailRaw[k] = readElement(nb+k, d.elements[nb+k])
		}
	}
	return v
}

// patches are a fork's own records among the positions of its sealed
// base's: at marks their positions.
type patches struct {
	at   []uint64
	info map[int]elemInfo
	raw  map[int]elemRaw
}

func (p *patches) has(i int) bool { return p != nil && p.at[i/64]&(1<<(i%64)) != 0 }

// at is element i's record.
func (v *validator) at(i int) elemInfo {
	if i >= len(v.info) {
		return v.tail[i-len(v.info)]
	}
	if v.patched.has(i) {
		return v.patched.info[i]
	}
	return v.info[i]
}

// rawAt is element i's elemRaw, nil when it was not read with its record
// (a sealed element's).
func (v *validator) rawAt(i int) *elemRaw {
	switch {
	case v.tail != nil && i >= len(v.info):
		return &v.tailRaw[i-len(v.info)]
	case v.raw != nil && i < len(v.raw):
		return &v.raw[i]
	case v.patched.has(i):
		r := v.patched.raw[i]
		return &r
	}
	return nil
}

// readElement reads what the checks ask of element i.
func readElement(i int, el *ojson.Object) (elemInfo, elemRaw) {
	e, r := elemInfo{pos: i, el: el}, elemRaw{read: true}
	if el != nil {
		r.id, r.hasID = el.Get("id")
		r.typ, r.hasType = el.Get("type")
		r.index, r.hasIndex = el.Get("index")
		e.id, _ = r.id.(string)   // elementID
		e.typ, _ = r.typ.(string) // elementType
		e.deleted = IsDeleted(el)
	}
	return e, r
}

// member returns element i's id, type or index, from v.raw when it was
// read there.
func (v *validator) member(i int, k string) (any, bool) {
	if r := v.rawAt(i); r != nil && r.read {
		switch k {
		case "id":
			return r.id, r.hasID
		case "type":
			return r.typ, r.hasType
		case "index":
			return r.index, r.hasIndex
		}
	}
	return v.doc.elements[i].Get(k)
}

// files returns the attachments, empty for a hand-built document without.
func (v *validator) files() *ojson.Object {
	if v.doc.files == nil {
		return ojson.New()
	}
	return v.doc.files
}

// add records a diagnostic. Past Limits.MaxDiagnostics it only counts
// it, except for the first error, which is always listed so that a report
// that is not valid says why.
func (v *validator) add(code string, sev Severity, ptr, id, format string, args ...any) {
	v.push(Diagnostic{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), ElementID: id, Pointer: ptr})
}

// push records d as add does.
func (v *validator) push(d Diagnostic) {
	if v.errorsOnly && d.Severity != SeverityError {
		return
	}
	firstError := d.Severity == SeverityError && v.errors == 0
	if d.Severity == SeverityError {
		v.errors++
	}
	if len(v.diags) >= v.lim.MaxDiagnostics && !firstError {
		v.omitted++
		return
	}
	v.diags = append(v.diags, d)
}

func (v *validator) report() Report {
	diags := v.diags
	if diags == nil {
		diags = []Diagnostic{}
	}
	return Report{Valid: v.errors == 0, Diagnostics: diags, Omitted: v.omitted, Stats: v.computeStats()}
}

func (v *validator) errorf(code, ptr, id, format string, args ...any) {
	v.add(code, SeverityError, ptr, id, format, args...)
}

func (v *validator) warnf(code, ptr, id, format string, args ...any) {
	v.add(code, SeverityWarning, ptr, id, format, args...)
}

// firstError returns the first error-severity diagnostic so far.
func (v *validator) firstError() (Diagnostic, bool) {
	for _, d := range v.diags {
		if d.Severity == SeverityError {
			return d, true
		}
	}
	return Diagnostic{}, false
}
