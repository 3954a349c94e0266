package store

import "testing"

func TestActorValid(t *testing.T) {
	for _, a := range []Actor{ActorAgent, ActorUI, ActorRecovery} {
		if !a.Valid() {
			t.Errorf("%q invalid", a)
		}
	}
	for _, a := range []Actor{"", "Agent", "admin"} {
		if a.Valid() {
			t.Errorf("%q valid", a)
		}
	}
}
