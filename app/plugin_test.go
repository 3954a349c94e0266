package app

import "testing"

func TestPluginValidate(t *testing.T) {
	apply := func(*Context, Config) error { return nil }
	cases := []struct {
		name string
		p    Plugin
		ok   bool
	}{
		{"ok", Plugin{Name: "a", Apply: apply, Inject: []Dep{Need("x"), Maybe("y")}}, true},
		{"no name", Plugin{Apply: apply}, false},
		{"no apply", Plugin{Name: "a"}, false},
		{"empty dep", Plugin{Name: "a", Apply: apply, Inject: []Dep{{}}}, false},
		{"dup dep", Plugin{Name: "a", Apply: apply, Inject: []Dep{Need("x"), Maybe("x")}}, false},
	}
	for _, c := range cases {
		if err := c.p.validate(); (err == nil) != c.ok {
			t.Errorf("%s: validate() = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

func TestConfigDecode(t *testing.T) {
	var v struct {
		Dir   string `json:"dir"`
		Limit int    `json:"limit"`
	}
	if err := (Config{"dir": "d", "limit": 3.0, "extra": true}).Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Dir != "d" || v.Limit != 3 {
		t.Fatalf("decoded %+v", v)
	}
	if err := (Config{"limit": "x"}).Decode(&v); err == nil {
		t.Fatal("want a type error")
	}
	var empty struct{ A int }
	if err := Config(nil).Decode(&empty); err != nil {
		t.Fatal(err)
	}
}
