package service

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// SceneSummary is one row of List (contract 4.1).
type SceneSummary struct {
	Name         string `json:"name"`
	Revision     int64  `json:"revision"`
	ElementCount int    `json:"elementCount"`
	ByteLength   int64  `json:"byteLength"`
	UpdatedAt    string `json:"updatedAt"`
	UpdatedBy    string `json:"updatedBy"`
	SHA256       string `json:"sha256"`
	Valid        bool   `json:"valid"`
}

// List returns every scene, sorted by name. An unreadable file is a row
// with valid:false rather than a failed listing, so one bad file never
// hides the others (the store guarantees this).
func (s *Service) List(ctx context.Context) ([]SceneSummary, error) {
	rows, err := s.store.List(ctx)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]SceneSummary, 0, len(rows))
	for _, r := range rows {
		out = append(out, sceneSummary(r))
	}
	return out, nil
}

func sceneSummary(r store.Summary) SceneSummary {
	return SceneSummary{
		Name:         r.Name,
		Revision:     r.Revision,
		ElementCount: r.ElementCount,
		ByteLength:   r.ByteLength,
		UpdatedAt:    formatTime(r.UpdatedAt),
		UpdatedBy:    string(r.UpdatedBy),
		SHA256:       r.SHA256,
		Valid:        r.Valid,
	}
}
