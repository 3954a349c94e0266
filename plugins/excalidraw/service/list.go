package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
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
	// UpdatedByName is who last wrote it, named by their credential
	// ("claude (for erin)", "erin"), as its history names them.
	UpdatedByName string `json:"updatedByName,omitempty"`
	SHA256        string `json:"sha256"`
	Valid         bool   `json:"valid"`
	// Problem says in a few words why an invalid file cannot be opened
	// ("not JSON at byte 12", "elements is not an array"); the editor's
	// list shows it as the row's tooltip. Absent when Valid.
	Problem string `json:"problem,omitempty"`
}

// List returns every scene, sorted by name. An unreadable file is a row
// with valid:false and a problem rather than a failed listing, so one bad
// file never hides the others (the store guarantees this).
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
	sum := SceneSummary{
		Name:          r.Name,
		Revision:      r.Revision,
		ElementCount:  r.ElementCount,
		ByteLength:    r.ByteLength,
		UpdatedAt:     formatTime(r.UpdatedAt),
		UpdatedBy:     string(r.UpdatedBy),
		UpdatedByName: r.UpdatedByName,
		SHA256:        r.SHA256,
		Valid:         r.Valid,
	}
	if !r.Valid {
		sum.Problem = problem(r.Err)
	}
	return sum
}

// problem puts into words why a listed file cannot be used. Most errors'
// messages say it already (the codec's diagnostic, "elements is not an
// array"; the store's refusal, "scene x is a symlink"); where a message
// would say too much or too little for a tooltip, the words come from the
// details: the byte offset of bytes that are not JSON, and the limit a
// file is over. Stored scenes are read under the highest limits any
// configuration allows (scene.Limits.ForReading), so a file over one is
// over every setting, and the words say so.
func problem(err error) string {
	if err == nil {
		return "cannot be read"
	}
	var codec *sceneerr.Error
	if errors.As(err, &codec) {
		return codecProblem(codec)
	}
	e := mapError(err).(*sceneerr.Error)
	if e.Code == sceneerr.TooLarge {
		if max, ok := e.Details["max"].(int64); ok {
			return "larger than the " + byteWords(max) + " any config allows"
		}
	}
	return e.Message
}

// codecProblem words the codec's complaint about bytes that do not parse
// (a diagnostic turned error, see scene.Diagnostic.Err).
func codecProblem(e *sceneerr.Error) string {
	diag, _ := e.Details["diagnostic"].(string)
	ptr, _ := e.Details["pointer"].(string)
	if diag == scene.CodeInvalidJSON {
		return fmt.Sprintf("not JSON at byte %v", e.Details["offset"])
	}
	if limit, ok := e.Details["limit"].(string); ok {
		max, _ := e.Details["max"].(int64)
		if sceneerr.Limit(limit) == sceneerr.MaxSceneBytes {
			return "larger than the " + byteWords(max) + " any config allows"
		}
		actual, _ := e.Details["actual"].(int64)
		return sceneerr.Limit(limit).Describe(actual, max) + ", the most any config allows"
	}
	switch diag {
	case scene.CodeInvalidDocument, scene.CodeDuplicateKey, scene.CodeUnsafeKey, scene.CodeTooDeep, "":
		// The message names the member or the byte already.
		return e.Message
	}
	if ptr == "" {
		return e.Message
	}
	return e.Message + " at " + ptr
}

// byteWords writes a size in the unit a person would: "256 MiB".
func byteWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
