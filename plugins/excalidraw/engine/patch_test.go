package engine

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Every patch field, at the edges of its range, yields a stored scene
// that validates: the patch checks are no looser than scene.Validate.
func TestPatchFieldsAtEdges(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	ops := []string{
		`{"op":"update","id":"b","patch":{"x":-1000000,"y":1000000,"width":0.5,"height":1000000}}`,
		`{"op":"update","id":"b","patch":{"angle":-6.2}}`,
		`{"op":"update","id":"b","patch":{"angle":6.2,"opacity":0,"roughness":2,"strokeWidth":100}}`,
		`{"op":"update","id":"b","patch":{"strokeColor":"transparent","backgroundColor":"#ffc9c9","fillStyle":"zigzag","strokeStyle":"dotted"}}`,
		`{"op":"update","id":"b","patch":{"roundness":"round","link":null,"groupIds":[],"locked":false}}`,
		`{"op":"update","id":"a","patch":{"fontFamily":1,"fontSize":1,"textAlign":"right","verticalAlign":"bottom"}}`,
		`{"op":"update","id":"a","patch":{"fontSize":1000,"textAlign":"left","verticalAlign":"top"}}`,
		`{"op":"update","id":"ab","patch":{"startArrowhead":"crowfoot_one_or_many","endArrowhead":null,"roundness":"round"}}`,
	}
	for _, op := range ops {
		if _, err := s.apply(op); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		s.doc()
	}
}

func TestPatchRejectsBadValues(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	bad := []string{
		`{"x":"1"}`, `{"x":2e6}`, `{"width":-1}`, `{"fillStyle":"dots"}`, `{"strokeColor":""}`, `{"roundness":true}`,
		`{"fontFamily":4}`, `{"fontSize":12}`, `{"locked":"yes"}`, `{"link":5}`, `{"groupIds":[1]}`,
		`{"startArrowhead":"arrow"}`, `{"angle":7}`, `{"isDeleted":true}`, `{"boundElements":[]}`, `{"index":"a0"}`,
	}
	for _, patch := range bad {
		_, err := s.apply(`{"op":"update","id":"b","patch":` + patch + `}`)
		wantCode(t, err, sceneerr.InvalidOperation)
	}
}
