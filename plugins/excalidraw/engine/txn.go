package engine

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Config is what a Txn edits with.
type Config struct {
	// Now stamps the `updated` of every element the Txn adds or changes;
	// it is read once, by Begin, so a transaction is one instant. Nil
	// means time.Now.
	Now func() time.Time
	// Rand draws element ids, seeds and versionNonces; nil means a
	// randomly seeded source. A *rand.Rand is not safe for concurrent use:
	// the Txn draws from it only inside its methods, so a caller sharing
	// one source between goroutines holds its lock around those calls.
	Rand *rand.Rand
	// MaxTextLength bounds the text of an added text element or label,
	// in characters (build.Context); zero means no bound.
	MaxTextLength int
}

// Txn is one transaction over a document: a series of edits that are
// one version step for every element they change, as one editor action
// is. It is not safe for concurrent use.
type Txn struct {
	doc    *scene.Document
	cfg    Config
	byID   *scene.IDMap
	now    int64
	result Result
	bumped map[*ojson.Object]bool
	// edited are elements changed before the transaction, by someone
	// else (MarkEdited): keepers treat them as bumped.
	edited map[*ojson.Object]bool
	// rerouted are the elbow arrows moves routed again (Rerouted).
	rerouted []string
	// placed are the elements the running Apply's updates give an x or
	// y: a frame an update moves leaves them to their own patch.
	placed map[string]bool
	err    error // the first failure; the Txn is spent
}

// Result counts what a Txn's operations did; IDs are the elements they
// named (added ones included), in operation order.
type Result struct {
	Added   int      `json:"added"`
	Updated int      `json:"updated"`
	Deleted int      `json:"deleted"`
	IDs     []string `json:"ids"`
}

// Begin starts a transaction on doc, which the Txn edits in place.
func Begin(doc *scene.Document, cfg Config) *Txn {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return &Txn{doc: doc, cfg: cfg, now: cfg.Now().UnixMilli(), bumped: map[*ojson.Object]bool{},
		result: Result{IDs: []string{}}}
}

// Result reports what the operations run so far did.
func (tx *Txn) Result() Result {
	r := tx.result
	r.IDs = slices.Clone(r.IDs)
	return r
}

// Add builds the element inputs (build.InputSchema) together, so arrows
// may bind to each other's ids as well as to the scene's elements, and
// puts them into the document after its elements; targets that gained a
// boundElements entry are updated. It returns the new elements' ids, in
// input order. pointer locates the inputs array in the caller's request:
// an error about input i is located under pointer/i.
func (tx *Txn) Add(inputs []json.RawMessage, pointer string) ([]string, error) {
	var ids []string
	err := tx.do(func() (err error) {
		if ids, err = tx.add(inputs, func(i int) string { return pointer + "/" + strconv.Itoa(i) }); err != nil {
			return err
		}
		tx.index() // later edits of this Txn find the new elements
		return nil
	})
	if err != nil {
		return nil, err
	}
	tx.result.Added += len(ids)
	for _, id := range ids {
		tx.note(id)
	}
	return ids, nil
}

// Apply runs operations (see DecodeOps) as the Apply of contract 4.4
// does: all adds first, built together (Add), so that arrows can bind to
// elements added in the same call; then updates and deletes in call
// order (they may name elements added by explicit id). An element is
// bumped (version, versionNonce, updated) once per transaction however
// many operations touch it, and not at all by an update that leaves it
// as it was.
func (tx *Txn) Apply(ops []Op) error {
	return tx.do(func() error { return tx.run(ops) })
}

// do runs one edit unless the Txn is spent, and keeps its failure: after
// one, every call returns it.
func (tx *Txn) do(edit func() error) error {
	if tx.err == nil {
		tx.err = edit()
	}
	return tx.err
}

// run applies the operations: adds together first, then the rest in order.
func (tx *Txn) run(ops []Op) error {
	tx.placed = map[string]bool{}
	for _, op := range ops {
		if op.kind == opUpdate && (op.patch.Has("x") || op.patch.Has("y")) {
			tx.placed[op.id] = true
		}
	}
	added, err := tx.addAll(ops)
	if err != nil {
		return err
	}
	tx.index()
	k := 0
	for _, op := range ops {
		switch op.kind {
		case opAdd:
			tx.note(added[k])
			k++
		case opUpdate:
			if err := tx.update(op); err != nil {
				return err
			}
			tx.result.Updated++
			tx.note(op.id)
		case opDelete:
			if err := tx.delete(op); err != nil {
				return err
			}
			tx.result.Deleted++
			tx.note(op.id)
		}
	}
	return nil
}

func (tx *Txn) note(id string) {
	tx.result.IDs = append(tx.result.IDs, id)
}

// addAll adds the elements of the add operations (see add).
func (tx *Txn) addAll(ops []Op) ([]string, error) {
	var inputs []json.RawMessage
	var where []string
	for _, op := range ops {
		if op.kind == opAdd {
			inputs = append(inputs, op.element)
			where = append(where, op.pointer+"/element")
		}
	}
	if len(inputs) == 0 {
		return nil, nil
	}
	ids, err := tx.add(inputs, func(i int) string { return where[i] })
	if err != nil {
		return nil, err
	}
	tx.result.Added += len(ids)
	return ids, nil
}

// add builds every input in one build.Build call, so arrows can bind to
// each other's ids, and puts the results into the document: targets that
// gained a boundElements entry are replaced by Build's updated copies.
// at maps an input's index to its pointer in the request.
func (tx *Txn) add(inputs []json.RawMessage, at func(int) string) ([]string, error) {
	res, err := build.Build(inputs, build.Context{
		Existing: tx.doc.Elements(), FileIDs: fileIDs(tx.doc), Rand: tx.cfg.Rand, Now: tx.cfg.Now, MaxTextLength: tx.cfg.MaxTextLength,
		ByID: tx.doc.IDMap(), LastIndex: tx.doc.LastIndex(),
	})
	if err != nil {
		return nil, prefixBuildError(err, at)
	}
	els := tx.doc.Elements()
	for _, up := range res.Updated {
		id, _ := up.String("id")
		if i, _ := tx.doc.Find(id); i >= 0 {
			tx.stepOnce(els[i], up)
			els[i] = up
		}
	}
	tx.markNew(res.Elements)
	tx.doc.SetElements(append(els, res.Elements...))
	return res.IDs, nil
}

// index maps ids to elements (first occurrence wins, as Find does).
func (tx *Txn) index() {
	tx.byID = tx.doc.IDMap() // on a fork: the sealed base's, read through
}

// live returns the live element with the id, or not_found located at the
// operation's id.
func (tx *Txn) live(op Op) (*ojson.Object, error) {
	el := tx.byID.Get(op.id)
	if el == nil {
		return nil, sceneerr.New(sceneerr.NotFound, "no element with id %q", op.id).With("pointer", op.pointer+"/id").With("id", op.id)
	}
	if scene.IsDeleted(el) {
		return nil, sceneerr.New(sceneerr.NotFound, "element %q is deleted", op.id).With("pointer", op.pointer+"/id").With("id", op.id)
	}
	return el, nil
}

// bump records a change to el the way Excalidraw's mutateElement does:
// version+1, a fresh versionNonce (a positive 31-bit integer, as
// Excalidraw's randomInteger gives), updated now. Each element is bumped
// once per Txn however many operations touch it, so that one call is one
// version step, as one editor action is.
func (tx *Txn) bump(el *ojson.Object) {
	if tx.bumped[el] {
		return
	}
	tx.bumped[el] = true
	el.Set("version", int64(scene.NumberOf(el, "version"))+1)
	el.Set("versionNonce", int64(tx.cfg.Rand.Int32()))
	el.Set("updated", tx.now)
}

// stepOnce keeps one version step per Txn for an element Build replaced
// by a touched copy (a target that gained a bound arrow): the copy counts
// as bumped, and if the element it replaces had been bumped already in
// this Txn, the copy keeps that step instead of taking a second one.
func (tx *Txn) stepOnce(was, copied *ojson.Object) {
	if tx.bumped[was] {
		for _, k := range versionFields {
			if v, ok := was.Get(k); ok {
				copied.Set(k, v)
			}
		}
	}
	tx.bumped[copied] = true
}

// markNew records elements created in this Txn as bumped: their version is
// their creation, which later edits in the same Txn do not step again.
func (tx *Txn) markNew(els []*ojson.Object) {
	for _, el := range els {
		tx.bumped[el] = true
	}
}
