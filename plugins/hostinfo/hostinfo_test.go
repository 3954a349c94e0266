package hostinfo

import "testing"

func TestResolve(t *testing.T) {
	i := Info{DataDir: "/srv/dsh"}
	if got := i.Resolve("excalidraw/drawings"); got != "/srv/dsh/excalidraw/drawings" {
		t.Fatal(got)
	}
	if got := i.Resolve("/abs/../x"); got != "/x" {
		t.Fatal(got)
	}
	if got := (Info{}).Resolve("a/b"); got != "a/b" {
		t.Fatal(got)
	}
}
