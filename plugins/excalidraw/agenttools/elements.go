package agenttools

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/tools"
)

// The element-level tools of the engine (seed 001's names). Every write
// plans in one engine transaction, lints what it touched before and
// after, commits once and answers service.Envelope; reads go through the
// query package's target selector. Their detail is in read_me (guide.md):
// schemas and descriptions stay short, because every agent pays for
// tools/list on every session.
const (
	QueryTool       = "query_elements"
	MeasureTool     = "measure_text"
	ValidateLint    = "validate_scene"
	ReadMeTool      = "read_me"
	BatchCreateTool = "batch_create"
	UpdateTool      = "update_elements"
	MoveTool        = "move_elements"
	DeleteTool      = "delete_elements"
	GroupTool       = "group_elements"
	UngroupTool     = "ungroup_elements"
	ReorderTool     = "reorder"
	ReplaceTextTool = "replace_text"
	CreateFrameTool = "create_frame"
	FrameAddTool    = "frame_add_children"
	ArrangeTool     = "arrange"
	CopyTool        = "copy_elements"
	RepairTool      = "repair_scene"
	ApplyOpsTool    = "apply_ops"
)

// Schema pieces, compact JSON. Every root is closed
// (additionalProperties:false); values the engine checks itself (patches,
// element inputs) are left open here and refused there with a pointer.
const (
	sName    = `"name":{"type":"string","maxLength":128}`
	sRev     = `"expected_revision":{"type":"integer","minimum":0}`
	sReq     = `"request_id":{"type":"string","minLength":1,"maxLength":128}`
	sOptions = `"options":{"type":"object","additionalProperties":false,"properties":{"dryRun":{"type":"boolean"},"strict":{"type":"boolean"},"lint":{"enum":["off","touched","all"]},"expect":{"type":"object"},"snap":{"type":"number","minimum":0,"maximum":1000},"verify":{"type":"boolean"},"note":{"type":"string","maxLength":2000}}}`
	// sOptionsListed is sOptions as tools/list shows it: the names, with
	// their rules in read_me ("Writes: options and the envelope"); calls
	// are checked against sOptions.
	sOptionsListed = `"options":{"type":"object","description":"dryRun, strict, lint: off|touched|all, expect, snap, verify, note: see read_me"}`
	// sTargetListed is sTarget as tools/list shows it, its keys named
	// and its rules in read_me ("The target selector").
	sTargetListed = `"target":{"type":"object","description":"selector: ids, types, role, kind, slot, frame_ids, frame_name, group_id, region, text_contains, text_regex, has_link, after: see read_me"}`
	sIDs          = `"ids":{"type":"array","items":{"type":"string","maxLength":256},"minItems":1,"maxItems":10000}`
	sTarget       = `"target":{"type":"object","additionalProperties":false,"properties":{"ids":{"type":"array","items":{"type":"string"}},"frame_ids":{"type":"array","items":{"type":"string"}},"frame_name":{"type":"string"},"group_id":{"type":"string"},"region":{"type":"object","additionalProperties":false,"required":["x","y","width","height"],"properties":{"x":{"type":"number"},"y":{"type":"number"},"width":{"type":"number"},"height":{"type":"number"},"mode":{"enum":["intersects","contains"]}}},"types":{"type":"array","items":{"type":"string"}},"role":{"enum":["container","label","connector","standalone","frame"]},"text_contains":{"type":"string","maxLength":1000},"text_regex":{"type":"string","maxLength":256},"has_link":{"type":"boolean"},"include_deleted":{"type":"boolean"},"kind":{"enum":["diagram","table","stack","slide","legend"]},"slot":{"type":"string","maxLength":64},"after":{"type":"integer","minimum":0},"type":{"type":["string","array"],"items":{"type":"string"}},"frameIds":{"type":"array","items":{"type":"string"}},"frameName":{"type":"string"},"groupId":{"type":"string"},"textContains":{"type":"string","maxLength":1000},"textRegex":{"type":"string","maxLength":256},"hasLink":{"type":"boolean"},"includeDeleted":{"type":"boolean"}}}`
	sNum          = `{"type":"number","minimum":-1000000,"maximum":1000000}`
)

// schema builds a closed object schema from member snippets.
func schema(required []string, members ...string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","additionalProperties":false`)
	if len(required) > 0 {
		b.WriteString(`,"required":["` + strings.Join(required, `","`) + `"]`)
	}
	b.WriteString(`,"properties":{` + strings.Join(members, ",") + `}}`)
	return json.RawMessage(b.String())
}

// writeMembers are the members every write tool takes.
var writeMembers = []string{sName, sRev, sReq, sOptions}

func writeSchema(required []string, members ...string) json.RawMessage {
	return schema(append([]string{"name"}, required...), append(append([]string{}, writeMembers...), members...)...)
}

// stepSchema is a write tool's schema as apply_ops checks a step that
// names the tool: the same, without the members apply_ops takes once for
// all its steps (writeMembers).
func stepSchema(toolSchema json.RawMessage) (json.RawMessage, error) {
	var root, props map[string]json.RawMessage
	var required []string
	if err := json.Unmarshal(toolSchema, &root); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(root["properties"], &props); err != nil {
		return nil, err
	}
	if r, ok := root["required"]; ok {
		if err := json.Unmarshal(r, &required); err != nil {
			return nil, err
		}
	}
	for _, m := range writeMembers {
		quoted, _, _ := strings.Cut(m, ":")
		name, err := strconv.Unquote(quoted)
		if err != nil {
			return nil, err
		}
		delete(props, name)
		required = slices.DeleteFunc(required, func(k string) bool { return k == name })
	}
	delete(root, "required")
	if len(required) > 0 {
		root["required"], _ = json.Marshal(required)
	}
	root["properties"], _ = json.Marshal(props)
	return json.Marshal(root)
}

// writeArgs are the members every write tool takes.
type writeArgs struct {
	Name             string               `json:"name"`
	ExpectedRevision *int64               `json:"expected_revision,omitempty"`
	RequestID        string               `json:"request_id,omitempty"`
	Options          service.WriteOptions `json:"options"`
}

func (a writeArgs) request(ctx context.Context) service.WriteRequest {
	return service.WriteRequest{Name: a.Name, ExpectedRevision: a.ExpectedRevision, RequestID: a.RequestID, Options: a.Options,
		Actor: store.ActorAgent, Attribution: attribution(ctx)}
}

// attribution is what the journal keeps of a tool call beyond who makes
// it: the tool, and the name the client gave itself as a detail. The
// service names the writer from the call's credential.
func attribution(ctx context.Context) store.Attribution {
	return store.Attribution{Client: tools.CallerOf(ctx).Client, Via: tools.ToolName(ctx)}
}

// elementTools are the engine's tools bound to svc.
func elementTools(svc *service.Service, lim limitsFunc) []tools.Tool {
	h := elementHandlers{svc: svc}
	read := tools.Annotations{ReadOnly: true, Idempotent: true}
	ro := func(title string) tools.Annotations { a := read; a.Title = title; return a }
	rw := func(title string, destructive bool) tools.Annotations {
		return tools.Annotations{Title: title, Destructive: destructive}
	}
	sel := []string{sIDs, sTarget}
	ts := []tools.Tool{
		{Name: QueryTool, Description: "Find elements by a target selector as compact rows or md, or see a diagram cheapest as a graph of nodes and arrows.",
			InputSchema: schema(nil, sName, `"scope":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":50}`, sTarget,
				`"after":{"type":"integer","minimum":0}`, `"format":{"enum":["rows","md","graph"]}`,
				`"fields":{"type":"array","items":{"type":"string"},"maxItems":40}`, `"aggregate":{"enum":["bounds"]}`,
				`"max_chars":{"type":"integer","minimum":0,"maximum":1000000}`, `"cursor":{"type":"string","maxLength":512}`, `"source":{"enum":["stored"]}`),
			Annotations: ro("Query elements"), Handler: tools.Typed(h.query)},
		{Name: MeasureTool, Description: "Measure text as the editor does: width, height, lines; with container, the box that fits it as a label.",
			InputSchema: schema([]string{"text"}, `"text":{"type":"string","maxLength":100000}`, `"font_family":{"type":"integer","minimum":1,"maximum":9}`,
				`"font_size":{"type":"number","minimum":1,"maximum":1000}`, `"max_width":{"type":"number","minimum":0}`,
				`"container":{"enum":["rectangle","ellipse","diamond"]}`, `"container_width":{"type":"number","minimum":0}`,
				`"line_height":{"type":"number","exclusiveMinimum":0,"maximum":10}`),
			Annotations: ro("Measure text"), Handler: tools.Typed(h.measure)},
		{Name: ValidateLint, Description: "Validate and lint a stored scene (name) or a document (scene): findings with codes, ids and suggested fixes.",
			InputSchema: schema(nil, sName, `"scene":{"type":"object"}`, `"lint":{"type":"boolean"}`, `"profile":{"enum":["visual-qa"]}`),
			Annotations: ro("Validate and lint a scene"), Handler: tools.Typed(h.validate)},
		{Name: ReadMeTool, Description: "The agent guide: which tool for what, selectors, options, envelope, errors, examples. Read first.",
			InputSchema: schema(nil), Annotations: ro("Read the agent guide"), Handler: tools.Typed(h.readMe)},

		{Name: BatchCreateTool, Description: "Create elements in one commit: excalidraw_scene_create's element inputs, plus ref (an alias) and place (beside a ref or id) for x/y.",
			InputSchema: writeSchema([]string{"elements"}, `"elements":{"type":"array","minItems":1,"maxItems":100000,"items":{"type":"object"}}`),
			Annotations: rw("Create elements", false), Handler: edit[service.CreateElements](h), ArgumentLimits: batchLimits(lim)},
		{Name: UpdateTool, Description: "Change elements' fields: each {id, patch} as in excalidraw_scene_apply; labels re-wrap, bound arrows follow.",
			InputSchema: writeSchema([]string{"updates"}, `"updates":{"type":"array","minItems":1,"maxItems":500,"items":{"type":"object","additionalProperties":false,"required":["id","patch"],"properties":{"id":{"type":"string"},"patch":{"type":"object"}}}}`),
			Annotations: rw("Update elements", false), Handler: edit[service.UpdateElements](h)},
		{Name: MoveTool, Description: "Move elements by dx/dy or their box's top-left to {x,y}; labels and frame children come along, arrows follow (elbow arrows re-route).",
			InputSchema: writeSchema(nil, append(sel, `"dx":`+sNum, `"dy":`+sNum, `"to":{"type":"object","additionalProperties":false,"required":["x","y"],"properties":{"x":`+sNum+`,"y":`+sNum+`}}`)...),
			Annotations: rw("Move elements", false), Handler: edit[service.MoveElements](h)},
		{Name: DeleteTool, Description: "Delete elements (ids or a target) with their labels; arrows bound to them are unbound.",
			InputSchema: writeSchema(nil, sel...), Annotations: rw("Delete elements", true), Handler: edit[service.DeleteElements](h)},
		{Name: GroupTool, Description: "Group elements (ids or a target; labels join their containers) to select and move together; answers group_id.",
			InputSchema: writeSchema(nil, sel...), Annotations: rw("Group elements", false), Handler: edit[service.GroupElements](h)},
		{Name: UngroupTool, Description: "Dissolve a group by group_id, or the outermost group of each given element; the elements stay where they are.",
			InputSchema: writeSchema(nil, `"group_id":{"type":"string"}`, sIDs), Annotations: rw("Ungroup elements", false), Handler: edit[service.UngroupElements](h)},
		{Name: ReorderTool, Description: "Change drawing order: to front, back, forward, backward, or before/after relative_to; labels keep with containers.",
			InputSchema: writeSchema([]string{"to"}, append(sel, `"to":{"enum":["front","back","forward","backward","before","after"]}`, `"relative_to":{"type":"string"}`)...),
			Annotations: rw("Reorder elements", false), Handler: edit[service.ReorderElements](h)},
		{Name: ReplaceTextTool, Description: "Find and replace in texts and labels (all, or ids/target); re-measured and re-wrapped.",
			InputSchema: writeSchema([]string{"find", "replace"}, append(sel, `"find":{"type":"string","minLength":1,"maxLength":256}`, `"replace":{"type":"string","maxLength":100000}`, `"regex":{"type":"boolean"}`, `"case_sensitive":{"type":"boolean"}`)...),
			Annotations: rw("Replace text", false), Handler: edit[service.ReplaceText](h)},
		{Name: CreateFrameTool, Description: "Create a frame around children (ids/target) with padding, or at box; answers frame_id.",
			InputSchema: writeSchema(nil, append(sel, `"frame_name":{"type":"string","maxLength":200}`, `"box":{"type":"object","additionalProperties":false,"required":["x","y","width","height"],"properties":{"x":`+sNum+`,"y":`+sNum+`,"width":{"type":"number","exclusiveMinimum":0},"height":{"type":"number","exclusiveMinimum":0}}}`, `"padding":{"type":"number","minimum":0,"maximum":1000}`)...),
			Annotations: rw("Create a frame", false), Handler: edit[service.CreateFrame](h)},
		{Name: FrameAddTool, Description: "Put elements (ids or a target) into the frame frame_id; labels and arrows between them join too.",
			InputSchema: writeSchema([]string{"frame_id"}, append(sel, `"frame_id":{"type":"string"}`)...),
			Annotations: rw("Add to a frame", false), Handler: edit[service.AddToFrame](h)},
		{Name: ArrangeTool, Description: "Lay elements out as a grid, row or column, or align/distribute them; arrows follow.",
			InputSchema: writeSchema(nil, append(sel, `"layout":{"enum":["grid","row","column"]}`, `"align":{"enum":["left","center","right","top","middle","bottom"]}`, `"distribute":{"enum":["horizontal","vertical"]}`, `"gap":{"type":"number","minimum":0,"maximum":10000}`, `"columns":{"type":"integer","minimum":1,"maximum":1000}`, `"origin":{"type":"object","additionalProperties":false,"required":["x","y"],"properties":{"x":`+sNum+`,"y":`+sNum+`}}`)...),
			Annotations: rw("Arrange elements", false), Handler: edit[service.ArrangeElements](h)},
		{Name: CopyTool, Description: "Duplicate elements (ids/target) with fresh ids and their bindings, offset by dx/dy, here or onto to_scene.",
			InputSchema: writeSchema(nil, append(sel, `"dx":`+sNum, `"dy":`+sNum, `"to_scene":{"type":"string","maxLength":128}`)...),
			Annotations: rw("Copy elements", false), Handler: tools.TypedWith(h.copy)},
		{Name: RepairTool, Description: "Repair a scene: the editor's repairs plus safe lint fixes (rebind near-miss arrows, grow tight containers).",
			InputSchema: writeSchema(nil), Annotations: rw("Repair a scene", false), Handler: edit[service.RepairScene](h)},
		{Name: ApplyOpsTool, Description: "Run several element tools on one scene as one commit: ops [{tool, args}] (args without name, options).",
			InputSchema: writeSchema([]string{"ops"}, `"ops":{"type":"array","minItems":1,"maxItems":100,"items":{"type":"object","additionalProperties":false,"required":["tool","args"],"properties":{"tool":{"enum":["batch_create","update_elements","move_elements","delete_elements","group_elements","ungroup_elements","reorder","replace_text","create_frame","frame_add_children","arrange","copy_elements","set_table","create_stack","layout_frames","set_legend"]},"args":{"type":"object"}}}}`),
			Annotations: rw("Apply several operations", true), Handler: tools.Typed(h.applyOps)},
	}
	// The edits of one scene refuse a stale expected_revision before
	// their arguments are checked (copy may write another scene, and
	// apply_ops runs other tools' arguments: both are left to the write).
	oneScene := map[string]bool{BatchCreateTool: true, UpdateTool: true, MoveTool: true, DeleteTool: true, GroupTool: true,
		UngroupTool: true, ReorderTool: true, ReplaceTextTool: true, CreateFrameTool: true, FrameAddTool: true, ArrangeTool: true, RepairTool: true}
	for i := range ts {
		// A malformed call is an invalid operation, as on the contract's
		// tools.
		ts[i].InvalidArgumentsCode = invalidArguments
		if oneScene[ts[i].Name] {
			ts[i].Refuse = staleRefusal(svc)
		}
	}
	return ts
}

// limitsFunc reads the service's current limits.
type limitsFunc func() scene.Limits

// batchLimits bounds batch_create like create: its bytes by
// maxSceneBytes, its elements by maxElements.
func batchLimits(lim limitsFunc) []tools.ArgumentLimit {
	return []tools.ArgumentLimit{
		sceneBytesLimit(lim),
		{Pointer: "/elements", Code: string(sceneerr.TooManyElements), Name: string(sceneerr.MaxElements), Unit: "elements",
			Max: func() int64 { return int64(lim().MaxElements) }},
	}
}

// elementHandlers are the element tools' handlers.
type elementHandlers struct {
	svc *service.Service
}

// edit runs e as one write.
func (h elementHandlers) edit(ctx context.Context, a writeArgs, e service.Edit) (any, error) {
	return envelope(h.svc.Edit(ctx, a.request(ctx), e))
}

// envelope renders a write's result.
func envelope(env *service.Envelope, err error) (any, error) {
	if err != nil {
		return nil, toolError(err)
	}
	return env, nil
}

// listOptionsShort gives each tool taking sOptions or sTarget a
// ListedSchema with sOptionsListed and sTargetListed instead: the
// options' and the selector's rules are the same in every tool that
// takes them and told once in read_me, where tools/list would repeat
// them in a dozen tools. Calls are still checked against the full rules.
func listOptionsShort(ts []tools.Tool) {
	for i := range ts {
		listed := ts[i].ListedSchema
		if listed == nil {
			listed = ts[i].InputSchema
		}
		short := bytes.Replace(listed, []byte(sOptions), []byte(sOptionsListed), 1)
		short = bytes.Replace(short, []byte(sTarget), []byte(sTargetListed), 1)
		if !bytes.Equal(short, listed) {
			ts[i].ListedSchema = short
		}
	}
}
