package scene

import "testing"

func TestPointer(t *testing.T) {
	cases := map[string]string{
		pointer():                              "",
		pointer("elements", 3, "points", 0, 1): "/elements/3/points/0/1",
		pointer("files", "a/b~c"):              "/files/a~1b~0c",
		elementPointer(2, "startBinding"):      "/elements/2/startBinding",
		elementPointer(0):                      "/elements/0",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
