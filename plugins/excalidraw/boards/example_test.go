package boards_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/identity"
)

func Example() {
	drawings, _ := os.MkdirTemp("", "boards-example")
	defer os.RemoveAll(drawings)

	ctx := context.Background()
	s := boards.Open(boards.File(drawings), boards.Options{})
	fmt.Println(filepath.Base(filepath.Dir(s.Path())) + "/" + filepath.Base(s.Path()))

	// A board for the scene "roadmap", owned by Ann, with Bob as a viewer
	// and filed in Ann's folder "Work".
	work, _, err := s.CreateFolder(ctx, "per_ann", "Work")
	if err != nil {
		panic(err)
	}
	if _, err := s.Create(ctx, boards.Board{Name: "roadmap", Title: "Roadmap 2025", Owner: "per_ann", Folder: work.ID, CreatedBy: "Ann"}); err != nil {
		panic(err)
	}
	if _, err := s.SetMember(ctx, "roadmap", "per_bob", identity.RoleViewer); err != nil {
		panic(err)
	}

	// Asking for the same folder again returns it.
	again, created, _ := s.CreateFolder(ctx, "per_ann", "work")
	fmt.Println(again.ID == work.ID, created)

	b, ok, err := s.Get(ctx, "roadmap")
	if err != nil || !ok {
		panic(err)
	}
	fmt.Println(b.Title, b.Owner, b.Members["per_bob"], b.Folder == work.ID)

	// Titles are one line.
	_, err = s.SetTitle(ctx, "roadmap", "two\nlines")
	fmt.Println(err)
	// Output:
	// .dsh-excalidraw/boards.json
	// true false
	// Roadmap 2025 per_ann viewer true
	// invalid_operation: title must be one line of at most 120 characters (it has a line break)
}
