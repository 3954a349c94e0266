package dsh

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLoginCommand(t *testing.T) {
	wd, _ := os.Getwd()
	for _, tc := range []struct{ path, want string }{
		{"", "dsh login"},
		{"/srv/dsh.yaml", "dsh login --config /srv/dsh.yaml"},
		{"config.example.yaml", "dsh login --config " + filepath.Join(wd, "config.example.yaml")},
		{"/home/me/my drawings/dsh.yaml", "dsh login --config '/home/me/my drawings/dsh.yaml'"},
		{"/tmp/it's.yaml", `dsh login --config '/tmp/it'\''s.yaml'`},
	} {
		if got := LoginCommand(tc.path); got != tc.want {
			t.Errorf("LoginCommand(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
