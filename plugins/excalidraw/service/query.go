package service

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Query formats.
const (
	FormatRows  = "rows"
	FormatMD    = "md"
	FormatGraph = "graph"
)

// QueryRequest is query_elements' input.
type QueryRequest struct {
	// Name is the scene; Scope lists several scenes to search instead.
	Name  string
	Scope []string
	// Target selects the elements (zero: every live element).
	Target query.Target
	// After is Target.After spelled beside the target (query_elements'
	// older argument); nil: not used.
	After *int64
	// Format is rows (default), md or graph.
	Format string
	// Fields projects rows (query.Fields); nil: query.DefaultFields.
	Fields []string
	// Aggregate "bounds" adds the selection's bounding box.
	Aggregate string
	// MaxChars cuts rows into pages; Cursor continues one.
	MaxChars int
	Cursor   string
}

// QueryResult is one scene's answer (Scenes holds one per scene of a
// Scope).
type QueryResult struct {
	Name       string           `json:"name,omitempty"`
	Revision   int64            `json:"revision,omitempty"`
	Count      int              `json:"count"`
	Rows       json.RawMessage  `json:"rows,omitempty"`
	Markdown   string           `json:"md,omitempty"`
	Graph      *query.GraphView `json:"graph,omitempty"`
	Bounds     *query.Box       `json:"bounds,omitempty"`
	NextCursor string           `json:"nextCursor,omitempty"`
	Scenes     []*QueryResult   `json:"scenes,omitempty"`
}

// maxScope bounds how many scenes one query searches.
const maxScope = 50

// Query reads elements through a target selector, in a compact format.
func (s *Service) Query(ctx context.Context, r QueryRequest) (*QueryResult, error) {
	switch r.Format {
	case "":
		r.Format = FormatRows
	case FormatRows, FormatMD, FormatGraph:
	default:
		return nil, opError("/format", "format must be %q, %q or %q", FormatRows, FormatMD, FormatGraph)
	}
	if r.Aggregate != "" && r.Aggregate != "bounds" {
		return nil, opError("/aggregate", "aggregate must be %q", "bounds")
	}
	if err := r.Target.Check(); err != nil {
		return nil, prefixPointer(err, "/target")
	}
	if len(r.Scope) > 0 {
		if r.Name != "" {
			return nil, opError("/scope", "give name or scope, not both")
		}
		if len(r.Scope) > maxScope {
			return nil, opError("/scope", "scope names at most %d scenes", maxScope)
		}
		if r.Cursor != "" {
			return nil, opError("/cursor", "a cursor continues one scene's answer; query that scene by name")
		}
		out := &QueryResult{}
		for i, name := range r.Scope {
			one := r
			one.Name, one.Scope = name, nil
			res, err := s.queryOne(ctx, one)
			if err != nil {
				return nil, prefixPointer(err, fmt.Sprintf("/scope/%d", i))
			}
			if res.Count > 0 {
				out.Scenes = append(out.Scenes, res)
				out.Count += res.Count
			}
		}
		return out, nil
	}
	return s.queryOne(ctx, r)
}

func (s *Service) queryOne(ctx context.Context, r QueryRequest) (*QueryResult, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	sc, err := s.store.Read(ctx, r.Name)
	if err != nil {
		return nil, mapError(err)
	}
	doc, err := s.viewStored(sc.Data) // read only: the cached document itself
	if err != nil {
		return nil, sceneerr.New(sceneerr.CorruptScene, "stored scene %s does not parse", r.Name).With("cause", err.Error())
	}
	t := r.Target
	if r.After != nil {
		// The older spelling, beside the target: the same selector.
		if t.After != nil {
			return nil, opError("/after", "give after once: in the target")
		}
		t.After = r.After
	}
	if t.After != nil {
		changed, err := s.changedAfter(ctx, r.Name, *t.After, sc.Revision, doc)
		if err != nil {
			at := "/target/after"
			if r.After != nil {
				at = "/after"
			}
			return nil, prefixPointer(err, at)
		}
		t.ChangedIDs = changed
	}
	all := doc.Elements()
	els, err := query.Select(all, t)
	if err != nil {
		return nil, prefixPointer(err, "/target")
	}
	res := &QueryResult{Name: r.Name, Revision: sc.Revision, Count: len(els)}
	if r.Aggregate == "bounds" {
		if b, ok := query.Bounds(els); ok {
			b = b.Rounded()
			res.Bounds = &b
		}
	}
	switch r.Format {
	case FormatGraph:
		g := query.Graph(els, all)
		res.Graph = &g
	case FormatMD:
		md, err := query.Markdown(els, all, r.Fields)
		if err != nil {
			return nil, err
		}
		res.Markdown = md
	default:
		rows, err := query.Rows(els, all, r.Fields)
		if err != nil {
			return nil, err
		}
		p, err := query.Page(query.EncodeRows(rows), r.MaxChars, r.Cursor, sc.Revision)
		if err != nil {
			return nil, err
		}
		res.Rows = joinRaw(p.Items)
		res.NextCursor = p.NextCursor
	}
	return res, nil
}

// MeasureRequest is measure_text's input.
type MeasureRequest struct {
	Text       string
	FontFamily int
	FontSize   float64
	// MaxWidth wraps the text (0: no wrapping).
	MaxWidth float64
	// Container, when set, also answers the size of a rectangle, ellipse
	// or diamond that fits the text as its label.
	Container string
}

// ValidateStoredRequest is validate_scene's input.
type ValidateStoredRequest struct {
	// Name is a stored scene; Scene a given document (one of them).
	Name  string
	Scene json.RawMessage
	// Lint adds lint findings (default true).
	Lint *bool
	// Profile "visual-qa" adds the visual-qa rules (lint.VisualQA),
	// checked against the stored board's profile; skipped, and said so,
	// when it has none.
	Profile string
}

// VisualQA is ValidateStoredRequest.Profile's one value.
const VisualQA = "visual-qa"

// LintedValidation is validate_scene's result: the contract's validation
// report plus lint findings.
type LintedValidation struct {
	scene.Report
	Name      string         `json:"name,omitempty"`
	Revision  int64          `json:"revision,omitempty"`
	Lint      []lint.Finding `json:"lint"`
	LintCount int            `json:"lintCount"`
	// Skipped says why the profile's rules were not run ("no profile").
	Skipped string `json:"skipped,omitempty"`
}

// maxLintFindings bounds validate_scene's findings.
const maxLintFindings = 100

// ValidateScene validates a stored scene or a given one and lints it.
func (s *Service) ValidateScene(ctx context.Context, r ValidateStoredRequest) (*LintedValidation, error) {
	if (r.Name == "") == (len(r.Scene) == 0) {
		return nil, opError("", "give name (a stored scene) or scene (a document), one of them")
	}
	out := &LintedValidation{Lint: []lint.Finding{}}
	data := []byte(r.Scene)
	if r.Name != "" {
		if err := store.ValidName(r.Name); err != nil {
			return nil, mapError(err)
		}
		sc, err := s.store.Read(ctx, r.Name)
		if err != nil {
			return nil, mapError(err)
		}
		data, out.Name, out.Revision = sc.Data, r.Name, sc.Revision
	}
	out.Report = s.Validate(data)
	if out.Report.Diagnostics == nil {
		out.Report.Diagnostics = []scene.Diagnostic{}
	}
	if r.Lint != nil && !*r.Lint {
		return out, nil
	}
	doc, err := s.viewStored(data) // lint only reads
	if err != nil {
		return out, nil // not a scene: the report says why
	}
	f := onceEach(doc, &out.Report, lintScene(doc))
	if r.Profile == VisualQA {
		qa, skipped, err := s.visualQA(ctx, r.Name, doc)
		if err != nil {
			return nil, err
		}
		f, out.Skipped = append(f, qa...), skipped
	}
	out.LintCount = len(f)
	if len(f) > maxLintFindings {
		f = f[:maxLintFindings]
	}
	out.Lint = f
	return out, nil
}

// lintScene is validate_scene's lint of a whole scene. Nothing in it was
// touched, so it has no near misses (lint.Options.Touched): a few pixels
// between two elements, or an arrow end unbound beside a shape, are for
// the write that moves one of them to report.
func lintScene(doc *scene.Document) []lint.Finding {
	bg := ""
	if a := doc.AppState(); a != nil {
		bg, _ = a.String("viewBackgroundColor")
	}
	return lint.Run(doc.Elements(), lint.Options{ViewBackgroundColor: bg, Touched: map[string]bool{}})
}

// joinRaw is a JSON array of already-encoded items.
func joinRaw(items []json.RawMessage) json.RawMessage {
	out := make([]byte, 0, 2+16*len(items))
	out = append(out, '[')
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	return append(out, ']')
}
