package agenttools

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
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
	// Profile "visual-qa" adds the rules that check the board's profile.
	Profile string `json:"profile,omitempty"`
}

func (h elementHandlers) validate(ctx context.Context, a validateLintArgs) (any, error) {
	res, err := h.svc.ValidateScene(ctx, service.ValidateStoredRequest{Name: a.Name, Scene: a.Scene, Lint: a.Lint, Profile: a.Profile})
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}

type noArgs struct{}

func (h elementHandlers) readMe(context.Context, noArgs) (any, error) {
	return map[string]string{"guide": Guide()}, nil
}

// ---- writes: each tool's arguments are the write's (writeArgs) and its
// edit's (service.Edit)

// edit is the handler of the write tool whose edit is E.
func edit[E service.Edit](h elementHandlers) tools.Handler {
	return tools.TypedWith(func(ctx context.Context, w writeArgs, e E) (any, error) { return h.edit(ctx, w, e) })
}

// copy copies within a scene, or onto to_scene (service.Copy).
func (h elementHandlers) copy(ctx context.Context, w writeArgs, e service.CopyElements) (any, error) {
	return envelope(h.svc.Copy(ctx, w.request(ctx), e))
}

// ---- apply_ops

type applyOpsArgs struct {
	writeArgs
	Ops []struct {
		Tool string          `json:"tool"`
		Args json.RawMessage `json:"args"`
	} `json:"ops"`
}

// stepDecoders decode a step's args (strictly) into the edit of the tool
// it names: the tools apply_ops can run.
var stepDecoders = map[string]func(args json.RawMessage) (service.Edit, error){
	BatchCreateTool: decodeStep[service.CreateElements],
	UpdateTool:      decodeStep[service.UpdateElements],
	MoveTool:        decodeStep[service.MoveElements],
	DeleteTool:      decodeStep[service.DeleteElements],
	ReplaceTextTool: decodeStep[service.ReplaceText],
	CopyTool:        decodeStep[service.CopyElements],
	GroupTool:       decodeStep[service.GroupElements],
	UngroupTool:     decodeStep[service.UngroupElements],
	ReorderTool:     decodeStep[service.ReorderElements],
	CreateFrameTool: decodeStep[service.CreateFrame],
	FrameAddTool:    decodeStep[service.AddToFrame],
	ArrangeTool:     decodeStep[service.ArrangeElements],
	// The board-craft planners: a table and its legend in one commit.
	SetTableTool:     decodeStep[service.SetTable],
	CreateStackTool:  decodeStep[service.CreateStack],
	LayoutFramesTool: decodeStep[service.LayoutFrames],
	SetLegendTool:    decodeStep[service.SetLegend],
}

// stepSchemas are the schemas apply_ops checks its steps with, by the
// tool a step names (stepSchema), compiled on first use.
func stepSchemas() (map[string]*tools.Schema, error) {
	compiledSteps.once.Do(func() {
		compiledSteps.schemas, compiledSteps.err = compileStepSchemas()
	})
	return compiledSteps.schemas, compiledSteps.err
}

var compiledSteps struct {
	once    sync.Once
	schemas map[string]*tools.Schema
	err     error
}

func compileStepSchemas() (map[string]*tools.Schema, error) {
	out := map[string]*tools.Schema{}
	for _, t := range slices.Concat(elementTools(nil, nil), craftTools(nil)) {
		if stepDecoders[t.Name] == nil {
			continue
		}
		raw, err := stepSchema(t.InputSchema)
		if err != nil {
			return nil, err
		}
		if out[t.Name], err = tools.CompileSchema(t.Name, raw, invalidArguments); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeStep[T service.Edit](args json.RawMessage) (service.Edit, error) {
	var e T
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, err
	}
	return e, nil
}

// applyOps checks each step with the schema of the tool it names, so a
// wrong step is refused as a call of that tool would be, at the step's
// args, and decodes it into that tool's edit; the edits run as one.
func (h elementHandlers) applyOps(ctx context.Context, a applyOpsArgs) (any, error) {
	schemas, err := stepSchemas()
	if err != nil {
		return nil, err
	}
	steps := make(service.Steps, len(a.Ops))
	for i, op := range a.Ops {
		at := service.StepPointer(i)
		decode, ok := stepDecoders[op.Tool]
		if !ok {
			return nil, toolError(opErr("/ops/"+strconv.Itoa(i)+"/tool", "apply_ops cannot run %q", op.Tool))
		}
		if te := schemas[op.Tool].Check(op.Args, at); te != nil {
			return nil, toolError(te)
		}
		if op.Tool == CopyTool && bytes.Contains(op.Args, []byte(`"to_scene"`)) {
			return nil, toolError(opErr(at+"/to_scene", "apply_ops runs on one scene; copy onto another with copy_elements"))
		}
		e, err := decode(op.Args)
		if err != nil {
			return nil, toolError(opErr(at, "the args do not fit the tool: %s", strings.TrimPrefix(err.Error(), "json: ")))
		}
		steps[i] = e
	}
	return h.edit(ctx, a.writeArgs, steps)
}

func opErr(pointer, format string, args ...any) error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", pointer)
}
