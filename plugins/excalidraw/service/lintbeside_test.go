package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// The lint that runs beside a commit cannot take the process down: a
// panic in it is logged and the write has no lint, nothing more.
func TestLintBesideRecoversAPanic(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if got := s.lintBeside(nil, nil, []string{"x"}, false)(); got != nil {
		t.Fatalf("lint of nothing gave %+v", got)
	}
}

// A write that is not strict gets the same lint as a strict one that
// passes: the lint only moved beside the commit.
func TestLintBesideTheCommitIsTheStrictLint(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "l", Elements: boxes(30)}); err != nil {
		t.Fatal(err)
	}
	// Moved onto its neighbour: an overlap warning, not an error.
	loose, err := s.Write(ctx, WriteRequest{Name: "l", Named: []string{"r5"}}, moveOne("r5", 40))
	if err != nil {
		t.Fatal(err)
	}
	strict, err := s.Write(ctx, WriteRequest{Name: "l", Named: []string{"r5"}, Options: WriteOptions{Strict: true}}, moveOne("r5", -40))
	if err != nil {
		t.Fatal(err)
	}
	if loose.Lint == nil || strict.Lint == nil || len(loose.Lint.New) == 0 || len(strict.Lint.Resolved) != len(loose.Lint.New) {
		t.Fatalf("lint beside the commit %+v, strict %+v", loose.Lint, strict.Lint)
	}
}
