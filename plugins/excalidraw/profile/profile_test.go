package profile

import "testing"

func TestOverFieldByField(t *testing.T) {
	folder := Profile{TypeScale: map[string]float64{"title": 36, "body": 20}, Spacing: 24,
		Roles: map[string]Role{"primary": {Stroke: "#1971c2"}, "error": {Stroke: "#e03131"}}}
	board := Profile{TypeScale: map[string]float64{"body": 16}, Roles: map[string]Role{"primary": {Stroke: "#2f9e44"}}}
	got := folder.Over(board)
	if got.TypeScale["title"] != 36 || got.TypeScale["body"] != 16 {
		t.Errorf("typeScale = %v, want title from the folder and body from the board", got.TypeScale)
	}
	if got.Spacing != 24 {
		t.Errorf("spacing = %v, want the folder's 24 (the board sets none)", got.Spacing)
	}
	if got.Roles["primary"].Stroke != "#2f9e44" || got.Roles["error"].Stroke != "#e03131" {
		t.Errorf("roles = %v", got.Roles)
	}
	if folder.TypeScale["body"] != 20 {
		t.Error("Over changed the profile under it")
	}
}

func TestZeroProfile(t *testing.T) {
	var p Profile
	if !p.IsZero() || p.Gap() != DefaultSpacing || p.Size("body", 20) != 20 {
		t.Errorf("zero profile: IsZero %v, Gap %v, Size %v", p.IsZero(), p.Gap(), p.Size("body", 20))
	}
}
