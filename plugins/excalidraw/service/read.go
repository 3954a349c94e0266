package service

import (
	"context"
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Include modes of ReadRequest.
const (
	IncludeFull    = "full"
	IncludeSummary = "summary"
)

// ReadRequest is contract 4.2's input.
type ReadRequest struct {
	Name string
	// Include is "full" (default: the stored document) or "summary".
	Include string
	// ElementType filters the summary to one element type.
	ElementType string
}

// ReadResult is a scene with its revision record.
type ReadResult struct {
	Name      string `json:"name"`
	Revision  int64  `json:"revision"`
	SHA256    string `json:"sha256"`
	UpdatedAt string `json:"updatedAt"`
	UpdatedBy string `json:"updatedBy"`
	// UpdatedByName is who last wrote it, named by their credential
	// ("claude (for erin)", "erin"), as its history names them.
	UpdatedByName string          `json:"updatedByName,omitempty"`
	ByteLength    int64           `json:"byteLength"`
	Scene         json.RawMessage `json:"scene,omitempty"`
	Summary       *Summary        `json:"summary,omitempty"`
}

// Read returns a scene. Full mode returns the stored bytes unchanged, so
// the sha256 reported is the hash of exactly what the caller gets.
func (s *Service) Read(ctx context.Context, r ReadRequest) (*ReadResult, error) {
	switch r.Include {
	case "", IncludeFull, IncludeSummary:
	default:
		return nil, opError("/include", "include must be %q or %q, not %q", IncludeFull, IncludeSummary, r.Include)
	}
	if r.ElementType != "" && r.Include != IncludeSummary {
		return nil, opError("/element_type", "element_type applies only to include %q", IncludeSummary)
	}
	sc, err := s.store.Read(ctx, r.Name)
	if err != nil {
		return nil, mapError(err)
	}
	res := &ReadResult{
		Name: sc.Name, Revision: sc.Revision, SHA256: sc.SHA256, UpdatedAt: formatTime(sc.UpdatedAt),
		UpdatedBy: string(sc.UpdatedBy), UpdatedByName: sc.UpdatedByName, ByteLength: sc.ByteLength,
	}
	if r.Include != IncludeSummary {
		res.Scene = json.RawMessage(sc.Data)
		return res, nil
	}
	doc, err := s.viewStored(sc.Data) // read only: the cached document itself
	if err != nil {
		return nil, sceneerr.New(sceneerr.CorruptScene, "stored scene %s does not parse", r.Name).With("cause", err.Error())
	}
	res.Summary = summarize(doc, r.ElementType, nil)
	return res, nil
}
