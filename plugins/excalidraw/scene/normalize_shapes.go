package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// freedrawFields: restore clears lastCommittedPoint and passes the rest
// through. Beyond restore, a stroke without pressures gets [] and one
// without simulatePressure gets true when it has no pressures (the
// renderer reads pressures[i] otherwise, and crashes on none); points
// that are not an array, on which restore crashes, become [] (restore
// then drops the stroke, as it does any with fewer than two points).
func freedrawFields(out []assignment, el *ojson.Object) []assignment {
	pressures, _ := el.Array("pressures")
	points := keep("points")
	if _, ok := el.Array("points"); !ok {
		points = assignment{key: "points", val: []any{}, kind: FixPoints}
	}
	return append(out, points,
		assignment{key: "lastCommittedPoint", val: nil, kind: FixPoints},
		nullishField(el, "simulatePressure", len(pressures) == 0),
		nullishField(el, "pressures", []any{}),
	)
}

// imageFields: restore's image defaults. Beyond restore, a missing fileId
// becomes null, as in new images awaiting their file.
func imageFields(out []assignment, el *ojson.Object) []assignment {
	return append(out,
		orField(el, "status", "pending"),
		nullishField(el, "fileId", nil),
		orField(el, "scale", []any{jsNumber(1), jsNumber(1)}),
		nullishField(el, "crop", nil),
	)
}
