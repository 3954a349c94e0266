package build

import (
	"encoding/json"
	"fmt"
	"testing"
)

// thousandInputs is a 1,000-element call: labelled shapes of each kind,
// arrows routed between them, text, lines and freedraw.
func thousandInputs() []json.RawMessage {
	var out []json.RawMessage
	add := func(format string, args ...any) { out = append(out, json.RawMessage(fmt.Sprintf(format, args...))) }
	kinds := []string{"rectangle", "ellipse", "diamond"}
	for i := 0; len(out) < 1000; i++ {
		x, y := float64(i%20)*300, float64(i/20)*250
		switch i % 5 {
		case 0, 1:
			add(`{"type":%q,"id":"n%d","x":%v,"y":%v,"width":160,"height":80,"label":{"text":"Node %d with a label"}}`, kinds[i%3], i, x, y, i)
		case 2:
			add(`{"type":"arrow","startElementId":"n%d","endElementId":"n%d"}`, i-2, i-1)
		case 3:
			add(`{"type":"text","x":%v,"y":%v,"text":"note %d"}`, x, y, i)
		case 4:
			add(`{"type":"line","x":%v,"y":%v,"points":[[0,0],[40,20],[80,0]]}`, x, y)
		}
	}
	return out
}

func BenchmarkBuild1000(b *testing.B) {
	inputs := thousandInputs()
	ctx := testContext()
	if _, err := Build(inputs, ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(inputs, ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func TestThousandInputsBuild(t *testing.T) {
	res, err := Build(thousandInputs(), testContext())
	if err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, res, nil)
}
