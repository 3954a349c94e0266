package draw

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram/mermaid"
	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

const checkout = `sequenceDiagram
    autonumber
    actor U as Shopper
    participant W as Web app
    participant A as API
    participant P as Payments
    participant DB as Orders DB
    U->>W: Check out
    W->>+A: POST /orders
    A->>DB: insert order
    DB-->>A: id
    alt card accepted
        A->>P: charge(card)
        P-->>A: ok
        A-->>W: 201 Created
    else card declined
        P-->>A: declined
        A-->>W: 402
    end
    Note over W,A: the order waits for payment
    loop every minute
        A->>A: retry failed charges
    end
    A-->>-W: done
    W-->>U: receipt
`

// TestDrawSequence draws a Mermaid sequence diagram through the real
// builder: every participant, message, note and block becomes editable
// elements, and lint finds nothing a reader would trip on.
func TestDrawSequence(t *testing.T) {
	d, err := mermaid.Read(checkout)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := LaySequence(d.Sequence, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dr := sp.Inputs(geom.V(10, 20), partID)
	res, err := build.Build(dr.Inputs, build.Context{Rand: rand.New(rand.NewPCG(1, 2)), Now: func() time.Time { return time.UnixMilli(1e12) }})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, p := range dr.Parts {
		if p.Piece == "" {
			kinds[p.Kind]++
		}
	}
	if kinds["participant"] != 5 || kinds["message"] != 12 || kinds["note"] != 1 || kinds["block"] != 2 {
		t.Errorf("parts drawn: %v", kinds)
	}
	pieces := map[string]bool{}
	for _, p := range dr.Parts {
		pieces[p.Kind+"/"+p.Piece] = true
	}
	for _, want := range []string{"block/section0", "block/section0-label", "block/title", "participant/lifeline", "participant/foot", "message/label"} {
		if !pieces[want] {
			t.Errorf("no %s drawn", want)
		}
	}
	for _, f := range lint.Run(res.Elements, lint.Options{}) {
		t.Errorf("lint: %s %s", f.Code, f.Message)
	}
	w, h := sp.Size()
	t.Logf("%d elements, %gx%g", len(res.Elements), w, h)
}
