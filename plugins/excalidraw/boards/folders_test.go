package boards

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// The cap holds under concurrent creates: it is counted under the
// document's lock, so of 30 new names at once exactly max are made, and a name the
// owner already has is still found at the cap.
func TestCreateFolderUpToHoldsUnderConcurrency(t *testing.T) {
	eachPlace(t, testCreateFolderUpToHoldsUnderConcurrency)
}

func testCreateFolderUpToHoldsUnderConcurrency(t *testing.T, pl place) {
	st, _ := pl.open(t)
	const max = 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	made, refused := 0, 0
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, created, err := st.CreateFolderUpTo(t.Context(), "per_a", fmt.Sprintf("F%d", i), max)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && created:
				made++
			case sceneerr.CodeOf(err) == sceneerr.RateLimited:
				refused++
			default:
				t.Errorf("create %d: %v %v", i, created, err)
			}
		}()
	}
	wg.Wait()
	if made != max || refused != 30-max {
		t.Fatalf("made %d, refused %d; want %d and %d", made, refused, max, 30-max)
	}
	list, _ := st.Folders(t.Context(), "per_a")
	if _, created, err := st.CreateFolderUpTo(t.Context(), "per_a", list[0].Name, max); err != nil || created {
		t.Fatalf("an existing name at the cap: %v %v", created, err)
	}
	if _, _, err := st.CreateFolderUpTo(t.Context(), "per_b", "F1", max); err != nil {
		t.Fatalf("another person's cap is their own: %v", err)
	}
}
