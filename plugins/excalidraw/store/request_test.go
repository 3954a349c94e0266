package store

import (
	"strings"
	"testing"
)

func TestCheckWrite(t *testing.T) {
	if err := checkWrite("a", ActorUI, "browser-tab-1:42", Attribution{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		actor Actor
		id    string
		code  string
	}{
		{"A", ActorUI, "", CodeInvalidName},
		{"a", "", "", CodeInvalidRequest},
		{"a", ActorUI, strings.Repeat("x", maxRequestIDLen+1), CodeInvalidRequest},
		{"a", ActorUI, "tab\n", CodeInvalidRequest},
		{"a", ActorUI, "\xff", CodeInvalidRequest},
	} {
		if got := CodeOf(checkWrite(c.name, c.actor, c.id, Attribution{})); got != c.code {
			t.Errorf("%+v: %s", c, got)
		}
	}
}

func TestInspectNew(t *testing.T) {
	s := testStore(t, func(o *Options) { o.MaxSceneBytes = 40 })
	if n, err := s.inspectNew([]byte(`{"elements":[1,2]}`)); err != nil || n != 2 {
		t.Fatalf("%d %v", n, err)
	}
	e := wantCode(t, err2(s.inspectNew([]byte(`{"elements":[`+strings.Repeat("1,", 30)+`1]}`))), CodeTooLarge)
	if e.Details["limit"] != "maxSceneBytes" || e.Details["max"] != int64(40) || e.Details["actual"] != int64(76) ||
		e.Message != "the scene would have 76 bytes; the limit is 40 (maxSceneBytes)" {
		t.Fatal(e.Message, e.Details)
	}
	wantCode(t, err2(s.inspectNew([]byte(`[]`))), CodeInvalidScene)
}
