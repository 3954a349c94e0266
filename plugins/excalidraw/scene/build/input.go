package build

import "encoding/json"

// input is one validated element input. Pointers tell "absent" from a
// value; the schema has already checked types, ranges and enums.
type input struct {
	Type             string          `json:"type"`
	ID               *string         `json:"id"`
	X                *float64        `json:"x"`
	Y                *float64        `json:"y"`
	Width            *float64        `json:"width"`
	Height           *float64        `json:"height"`
	Angle            *float64        `json:"angle"`
	StrokeColor      *string         `json:"strokeColor"`
	BackgroundColor  *string         `json:"backgroundColor"`
	FillStyle        *string         `json:"fillStyle"`
	StrokeWidth      *float64        `json:"strokeWidth"`
	StrokeStyle      *string         `json:"strokeStyle"`
	Roughness        *float64        `json:"roughness"`
	Opacity          *float64        `json:"opacity"`
	Roundness        *string         `json:"roundness"`
	GroupIDs         []string        `json:"groupIds"`
	FrameID          *string         `json:"frameId"`
	Link             *string         `json:"link"`
	Locked           *bool           `json:"locked"`
	Text             *string         `json:"text"`
	FontSize         *float64        `json:"fontSize"`
	FontFamily       json.RawMessage `json:"fontFamily"`
	TextAlign        *string         `json:"textAlign"`
	VerticalAlign    *string         `json:"verticalAlign"`
	Label            *labelInput     `json:"label"`
	Points           [][2]float64    `json:"points"`
	StartArrowhead   json.RawMessage `json:"startArrowhead"` // absent, null or a name
	EndArrowhead     json.RawMessage `json:"endArrowhead"`
	StartElementID   *string         `json:"startElementId"`
	EndElementID     *string         `json:"endElementId"`
	Elbowed          *bool           `json:"elbowed"`
	Pressures        []float64       `json:"pressures"`
	SimulatePressure *bool           `json:"simulatePressure"`
	FileID           *string         `json:"fileId"`
	Scale            []float64       `json:"scale"`
}

// labelInput is a shape's or arrow's label.
type labelInput struct {
	Text          string          `json:"text"`
	FontSize      *float64        `json:"fontSize"`
	FontFamily    json.RawMessage `json:"fontFamily"`
	TextAlign     *string         `json:"textAlign"`
	VerticalAlign *string         `json:"verticalAlign"`
	StrokeColor   *string         `json:"strokeColor"`
}

// arrowhead reads an arrowhead field: absent gives def, null gives nil.
func arrowhead(raw json.RawMessage, def any) any {
	if len(raw) == 0 {
		return def
	}
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil || s == nil {
		return nil
	}
	return *s
}

// orString returns *p, or def when p is nil.
func orString(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// orFloat returns *p, or def when p is nil.
func orFloat(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

// orBool returns *p, or def when p is nil.
func orBool(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}
