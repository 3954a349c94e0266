package agenttools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// ---- reads

type queryArgs struct {
	Name      string       `json:"name,omitempty"`
	Scope     []string     `json:"scope,omitempty"`
	Target    query.Target `json:"target"`
	After     *int64       `json:"after,omitempty"`
	Format    string       `json:"format,omitempty"`
	Fields    []string     `json:"fields,omitempty"`
	Aggregate string       `json:"aggregate,omitempty"`
	MaxChars  int          `json:"max_chars,omitempty"`
	Cursor    string       `json:"cursor,omitempty"`
	Source    string       `json:"source,omitempty"`
}

func (h elementHandlers) query(ctx context.Context, a queryArgs) (any, error) {
	if a.Name == "" && len(a.Scope) == 0 {
		return nil, toolError(sceneerr.New(sceneerr.InvalidOperation, "give the scene's name, or a scope of scenes").With("pointer", "/name"))
	}
	res, err := h.svc.Query(ctx, service.QueryRequest{
		Name: a.Name, Scope: a.Scope, Target: a.Target, After: a.After, Format: a.Format, Fields: a.Fields,
		Aggregate: a.Aggregate, MaxChars: a.MaxChars, Cursor: a.Cursor,
	})
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}

type measureArgs struct {
	Text           string  `json:"text"`
	FontFamily     int     `json:"font_family,omitempty"`
	FontSize       float64 `json:"font_size,omitempty"`
	MaxWidth       float64 `json:"max_width,omitempty"`
	Container      string  `json:"container,omitempty"`
	ContainerWidth float64 `json:"container_width,omitempty"`
	LineHeight     float64 `json:"line_height,omitempty"`
}

func (h elementHandlers) measure(_ context.Context, a measureArgs) (any, error) {
	return build.MeasureText(a.Text, a.FontFamily, a.FontSize, a.MaxWidth, a.Container, a.ContainerWidth, a.LineHeight), nil
}

type validateLintArgs struct {
	Name  string          `json:"name,omitempty"`
	Scene json.RawMessage `json:"scene,omitempty"`
	Lint  *bool           `json:"lint,omitempty"`
}

func (h elementHandlers) validate(ctx context.Context, a validateLintArgs) (any, error) {
	res, err := h.svc.ValidateScene(ctx, service.ValidateStoredRequest{Name: a.Name, Scene: a.Scene, Lint: a.Lint})
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}

type noArgs struct{}

func (h elementHandlers) readMe(context.Context, noArgs) (any, error) {
	return map[string]string{"guide": Guide()}, nil
}

// ---- writes: each tool's arguments and its plan

type batchCreateArgs struct {
	writeArgs
	createOp
}
type createOp struct {
	Elements []json.RawMessage `json:"elements"`
}

func (o createOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, _ *scene.Document) (service.PlanResult, error) {
		res, err := tx.Create(o.Elements, at+"/elements")
		if err != nil {
			return service.PlanResult{}, err
		}
		extra := map[string]any{}
		if len(res.Refs) > 0 {
			extra["refs"] = res.Refs
		}
		return service.PlanResult{Targets: res.IDs, Extra: extra}, nil
	}
}

func (h elementHandlers) batchCreate(ctx context.Context, a batchCreateArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.createOp.plan(""))
}

type updateArgs struct {
	writeArgs
	updateOp
}
type updateOp struct {
	Updates []struct {
		ID    string          `json:"id"`
		Patch json.RawMessage `json:"patch"`
	} `json:"updates"`
}

// ids are the ids the updates name.
func (o updateOp) ids() []string {
	ids := make([]string, len(o.Updates))
	for i, u := range o.Updates {
		ids[i] = u.ID
	}
	return ids
}

func (o updateOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, _ *scene.Document) (service.PlanResult, error) {
		raws := make([]json.RawMessage, len(o.Updates))
		ids := make([]string, len(o.Updates))
		for i, u := range o.Updates {
			b, _ := json.Marshal(map[string]any{"op": "update", "id": u.ID, "patch": u.Patch})
			raws[i], ids[i] = b, u.ID
		}
		return service.PlanResult{Targets: ids}, runOps(tx, raws, at+"/updates")
	}
}

// runOps runs the contract's operations, with their errors located under
// at (the engine locates them under /operations).
func runOps(tx *engine.Txn, raws []json.RawMessage, at string) error {
	ops, err := engine.DecodeOps(raws)
	if err == nil {
		err = tx.Apply(ops)
	}
	if err == nil {
		return nil
	}
	if se, ok := err.(*sceneerr.Error); ok {
		if p, _ := se.Details["pointer"].(string); strings.HasPrefix(p, "/operations") {
			return se.With("pointer", at+strings.TrimPrefix(p, "/operations"))
		}
	}
	return err
}

func (h elementHandlers) update(ctx context.Context, a updateArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.updateOp.plan(""), a.updateOp.ids()...)
}

type moveArgs struct {
	writeArgs
	moveOp
}
type moveOp struct {
	selection
	DX *float64 `json:"dx,omitempty"`
	DY *float64 `json:"dy,omitempty"`
	To *struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
	} `json:"to,omitempty"`
}

func (o moveOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, true)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		var unbound []engine.Unbound
		switch {
		case o.To != nil && (o.DX != nil || o.DY != nil):
			return service.PlanResult{}, opErr(at+"/to", "give dx/dy or to, not both")
		case o.To != nil:
			unbound, err = tx.MoveTo(ids, o.To.X, o.To.Y, at+o.idsPointer())
		case o.DX == nil && o.DY == nil:
			return service.PlanResult{}, opErr(at+"/dx", "give dx and/or dy, or to")
		default:
			unbound, err = tx.Move(ids, deref(o.DX), deref(o.DY), at+o.idsPointer())
		}
		if err != nil {
			return service.PlanResult{}, err
		}
		pr := service.PlanResult{Targets: ids}
		if len(unbound) > 0 {
			pr.Extra = map[string]any{"unbound": unbound}
		}
		return pr, nil
	}
}

func (h elementHandlers) move(ctx context.Context, a moveArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.moveOp.plan(""), a.moveOp.IDs...)
}

type deleteArgs struct {
	writeArgs
	deleteOp
}
type deleteOp struct {
	selection
}

func (o deleteOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, true)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		raws := make([]json.RawMessage, len(ids))
		for i, id := range ids {
			raws[i], _ = json.Marshal(map[string]string{"op": "delete", "id": id})
		}
		return service.PlanResult{Targets: ids}, runOps(tx, raws, at+o.idsPointer())
	}
}

func (h elementHandlers) delete(ctx context.Context, a deleteArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.deleteOp.plan(""), a.deleteOp.IDs...)
}

type replaceTextArgs struct {
	writeArgs
	replaceTextOp
}
type replaceTextOp struct {
	selection
	Find          string `json:"find"`
	Replace       string `json:"replace"`
	Regex         bool   `json:"regex,omitempty"`
	CaseSensitive bool   `json:"case_sensitive,omitempty"`
}

func (o replaceTextOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, false)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		if o.Target != nil && len(ids) == 0 {
			return service.PlanResult{}, sceneerr.New(sceneerr.NotFound, "the target selects no element").With("pointer", at+"/target")
		}
		changed, err := tx.ReplaceText(ids, engine.Replacement{Find: o.Find, Replace: o.Replace, Regex: o.Regex,
			CaseSensitive: o.CaseSensitive, Pointer: at + "/find"}, at+o.idsPointer())
		if err != nil {
			return service.PlanResult{}, err
		}
		return service.PlanResult{Targets: changed}, nil
	}
}

func (h elementHandlers) replaceText(ctx context.Context, a replaceTextArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.replaceTextOp.plan(""), a.replaceTextOp.IDs...)
}

type copyArgs struct {
	writeArgs
	copyOp
}
type copyOp struct {
	selection
	DX      float64 `json:"dx,omitempty"`
	DY      float64 `json:"dy,omitempty"`
	ToScene string  `json:"to_scene,omitempty"`
}

func (o copyOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, true)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		ids2, err := tx.Copy(ids, o.DX, o.DY, at+o.idsPointer())
		if err != nil {
			return service.PlanResult{}, err
		}
		return service.PlanResult{Extra: map[string]any{"copies": ids2}}, nil
	}
}

// copy copies within a scene, or, with to_scene, reads the source scene
// and pastes into the target scene's transaction (one commit, on the
// target; the source is not changed).
func (h elementHandlers) copy(ctx context.Context, a copyArgs) (any, error) {
	if a.ToScene == "" || a.ToScene == a.Name {
		return h.write(ctx, a.writeArgs, a.copyOp.plan(""))
	}
	clip, err := h.svc.CopyOut(ctx, a.Name, func(doc *scene.Document) ([]string, error) { return a.resolve(doc, true) }, a.idsPointer())
	if err != nil {
		return nil, toolError(err)
	}
	to := a.writeArgs
	to.Name = a.ToScene
	return h.write(ctx, to, func(tx *engine.Txn, _ *scene.Document) (service.PlanResult, error) {
		p, err := tx.Paste(clip, a.DX, a.DY, a.idsPointer())
		if err != nil {
			return service.PlanResult{}, err
		}
		return service.PlanResult{Extra: map[string]any{"copies": p.IDs, "files": p.Files, "from": a.Name}}, nil
	})
}

// ---- apply_ops

type applyOpsArgs struct {
	writeArgs
	Ops []struct {
		Tool string          `json:"tool"`
		Args json.RawMessage `json:"args"`
	} `json:"ops"`
}

// opPlanner decodes one op's args (strictly) into its tool's op and
// returns its plan, errors located under at.
type opPlanner func(args json.RawMessage, at string) (service.Plan, error)

func decodeOp[T interface{ plan(string) service.Plan }](args json.RawMessage, at string) (service.Plan, error) {
	var op T
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&op); err != nil {
		return nil, opErr(at, "the args do not fit the tool: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return op.plan(at), nil
}

// opPlanners are the tools apply_ops can run.
var opPlanners = map[string]opPlanner{
	BatchCreateTool: decodeOp[createOp],
	UpdateTool:      decodeOp[updateOp],
	MoveTool:        decodeOp[moveOp],
	DeleteTool:      decodeOp[deleteOp],
	ReplaceTextTool: decodeOp[replaceTextOp],
	CopyTool:        decodeOp[copyOp],
	GroupTool:       decodeOp[groupOp],
	UngroupTool:     decodeOp[ungroupOp],
	ReorderTool:     decodeOp[reorderOp],
	CreateFrameTool: decodeOp[createFrameOp],
	FrameAddTool:    decodeOp[frameAddOp],
	ArrangeTool:     decodeOp[arrangeOp],
}

func (h elementHandlers) applyOps(ctx context.Context, a applyOpsArgs) (any, error) {
	plans := make([]service.Plan, len(a.Ops))
	for i, op := range a.Ops {
		at := "/ops/" + strconv.Itoa(i) + "/args"
		p, ok := opPlanners[op.Tool]
		if !ok {
			return nil, toolError(opErr("/ops/"+strconv.Itoa(i)+"/tool", "apply_ops cannot run %q", op.Tool))
		}
		if op.Tool == CopyTool && bytes.Contains(op.Args, []byte(`"to_scene"`)) {
			return nil, toolError(opErr(at+"/to_scene", "apply_ops runs on one scene; copy onto another with copy_elements"))
		}
		plan, err := p(op.Args, at)
		if err != nil {
			return nil, toolError(err)
		}
		plans[i] = plan
	}
	return h.write(ctx, a.writeArgs, func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		var all service.PlanResult
		results := make([]map[string]any, len(plans))
		for i, plan := range plans {
			pr, err := plan(tx, doc)
			if err != nil {
				return service.PlanResult{}, err
			}
			all.Targets = append(all.Targets, pr.Targets...)
			all.Ignored = append(all.Ignored, pr.Ignored...)
			results[i] = pr.Extra
		}
		all.Extra = map[string]any{"ops": results}
		return all, nil
	})
}

func opErr(pointer, format string, args ...any) error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", pointer)
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

var _ = fmt.Sprint

// atSelection puts errors the engine located under at+"/ids/<i>" under
// at+"/target" when the ids came from a target.
func atSelection(err error, s selection, at string) error {
	se, ok := err.(*sceneerr.Error)
	if !ok || s.Target == nil {
		return err
	}
	if p, _ := se.Details["pointer"].(string); strings.HasPrefix(p, at+"/ids") {
		return se.With("pointer", at+"/target")
	}
	return err
}

type groupArgs struct {
	writeArgs
	groupOp
}
type groupOp struct {
	selection
}

func (o groupOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, true)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		g, err := tx.Group(ids, at)
		if err != nil {
			return service.PlanResult{}, atSelection(err, o.selection, at)
		}
		return service.PlanResult{Targets: ids, Extra: map[string]any{"group_id": g}}, nil
	}
}

func (h elementHandlers) group(ctx context.Context, a groupArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.groupOp.plan(""), a.groupOp.IDs...)
}

type ungroupArgs struct {
	writeArgs
	ungroupOp
}
type ungroupOp struct {
	GroupID string   `json:"group_id,omitempty"`
	IDs     []string `json:"ids,omitempty"`
}

func (o ungroupOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, _ *scene.Document) (service.PlanResult, error) {
		switch {
		case o.GroupID != "" && len(o.IDs) > 0:
			return service.PlanResult{}, opErr(at+"/group_id", "give group_id or ids, not both")
		case o.GroupID != "":
			members, err := tx.Ungroup(o.GroupID, at)
			return service.PlanResult{Targets: members}, err
		case len(o.IDs) > 0:
			groups, members, err := tx.UngroupElements(o.IDs, at)
			return service.PlanResult{Targets: members, Extra: map[string]any{"groups": groups}}, err
		}
		return service.PlanResult{}, opErr(at+"/group_id", "give the group_id to dissolve, or ids")
	}
}

func (h elementHandlers) ungroup(ctx context.Context, a ungroupArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.ungroupOp.plan(""), a.ungroupOp.IDs...)
}

type reorderArgs struct {
	writeArgs
	reorderOp
}
type reorderOp struct {
	selection
	To         string `json:"to"`
	RelativeTo string `json:"relative_to,omitempty"`
}

func (o reorderOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, true)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		if err := tx.Reorder(ids, o.To, o.RelativeTo, at); err != nil {
			return service.PlanResult{}, atSelection(err, o.selection, at)
		}
		return service.PlanResult{Targets: ids}, nil
	}
}

func (h elementHandlers) reorder(ctx context.Context, a reorderArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.reorderOp.plan(""), a.reorderOp.IDs...)
}

type createFrameArgs struct {
	writeArgs
	createFrameOp
}
type createFrameOp struct {
	selection
	FrameName string      `json:"frame_name,omitempty"`
	Box       *engine.Box `json:"box,omitempty"`
	Padding   float64     `json:"padding,omitempty"`
}

func (o createFrameOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, o.Box == nil)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		id, err := tx.CreateFrame(o.FrameName, o.Box, ids, o.Padding, at)
		if err != nil {
			return service.PlanResult{}, atSelection(err, o.selection, at)
		}
		return service.PlanResult{Targets: append([]string{id}, ids...), Extra: map[string]any{"frame_id": id}}, nil
	}
}

func (h elementHandlers) createFrame(ctx context.Context, a createFrameArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.createFrameOp.plan(""), a.createFrameOp.IDs...)
}

type frameAddArgs struct {
	writeArgs
	frameAddOp
}
type frameAddOp struct {
	selection
	FrameID string `json:"frame_id"`
}

func (o frameAddOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, true)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		if err := tx.FrameAdd(o.FrameID, ids, at); err != nil {
			return service.PlanResult{}, atSelection(err, o.selection, at)
		}
		return service.PlanResult{Targets: ids}, nil
	}
}

func (h elementHandlers) frameAdd(ctx context.Context, a frameAddArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.frameAddOp.plan(""), a.frameAddOp.IDs...)
}

type arrangeArgs struct {
	writeArgs
	arrangeOp
}
type arrangeOp struct {
	selection
	Layout     string        `json:"layout,omitempty"`
	Align      string        `json:"align,omitempty"`
	Distribute string        `json:"distribute,omitempty"`
	Gap        float64       `json:"gap,omitempty"`
	Columns    int           `json:"columns,omitempty"`
	Origin     *engine.Point `json:"origin,omitempty"`
}

func (o arrangeOp) plan(at string) service.Plan {
	return func(tx *engine.Txn, doc *scene.Document) (service.PlanResult, error) {
		ids, err := o.resolve(doc, true)
		if err != nil {
			return service.PlanResult{}, prefix(err, at)
		}
		a := engine.Arrangement{Layout: o.Layout, Align: o.Align, Distribute: o.Distribute, Gap: o.Gap, Columns: o.Columns, Origin: o.Origin}
		if err := tx.Arrange(ids, a, at); err != nil {
			return service.PlanResult{}, atSelection(err, o.selection, at)
		}
		return service.PlanResult{Targets: ids}, nil
	}
}

func (h elementHandlers) arrange(ctx context.Context, a arrangeArgs) (any, error) {
	return h.write(ctx, a.writeArgs, a.arrangeOp.plan(""), a.arrangeOp.IDs...)
}

type repairArgs struct {
	writeArgs
}

func (h elementHandlers) repair(ctx context.Context, a repairArgs) (any, error) {
	return h.write(ctx, a.writeArgs, func(tx *engine.Txn, _ *scene.Document) (service.PlanResult, error) {
		rep, err := tx.Repair()
		if err != nil {
			return service.PlanResult{}, err
		}
		extra := map[string]any{"fixed": rep.Fixed}
		if len(rep.Skipped) > 0 {
			extra["skipped"] = rep.Skipped
		}
		if len(rep.Normalize.Repairs) > 0 {
			extra["repairs"] = rep.Normalize.Repairs
		}
		return service.PlanResult{Extra: extra}, nil
	})
}
