package scene

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestValidBase64(t *testing.T) {
	good := []string{"AAAA", "iVBORw0KGgo=", "YQ==", "+/+/"}
	bad := []string{"", "AAA", "A===", "AA=A", "AA A", "AAAAA", "YQ", "Y!==", "===="}
	for _, s := range good {
		if !validBase64(s) {
			t.Errorf("%q must be valid", s)
		}
	}
	for _, s := range bad {
		if validBase64(s) {
			t.Errorf("%q must be invalid", s)
		}
	}
}

// TestValidBase64EveryByte: any byte outside the alphabet, anywhere in
// the words or the tail, makes a string invalid.
func TestValidBase64EveryByte(t *testing.T) {
	alphabet := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for c := range 256 {
		in := strings.IndexByte(alphabet, byte(c)) >= 0
		for _, n := range []int{4, 8, 12, 20, 36} {
			for pos := range n - 2 {
				s := []byte(strings.Repeat("QUJD", n/4))
				s[pos] = byte(c)
				if got := validBase64(string(s)); got != in {
					t.Fatalf("byte %#x at %d of %d: valid %v", c, pos, n, got)
				}
			}
		}
	}
}

func TestParseDataURL(t *testing.T) {
	for _, m := range []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"} {
		got, err := parseDataURL("data:" + m + ";base64,AAAA")
		if err != nil || got != m {
			t.Errorf("%s: %q %v", m, got, err)
		}
	}
	bad := map[string]string{
		"image/png;base64,AAAA":                "does not start",
		"data:image/png,AAAA":                  "not a base64",
		"data:image/bmp;base64,AAAA":           "media type",
		"data:text/html;base64,AAAA":           "media type",
		"data:image/png;base64,AA*A":           "not valid base64",
		"data:image/png;charset=x;base64,AAAA": "media type",
	}
	for in, want := range bad {
		if _, err := parseDataURL(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to mention %q", in, err, want)
		}
	}
}

func attachment(id, mime, url string) *ojson.Object {
	return ojson.New().Set("mimeType", mime).Set("id", id).Set("dataURL", url).Set("created", 1)
}

func TestCheckAttachment(t *testing.T) {
	const url = "data:image/png;base64,iVBORw0KGgo="
	if n, p := checkAttachment("f1", attachment("f1", "image/png", url)); p != "" || n != int64(len(url)) {
		t.Fatalf("good attachment: %d %q", n, p)
	}
	cases := map[string]struct {
		key string
		v   any
	}{
		"not an object":    {"f1", "x"},
		"no dataURL":       {"f1", ojson.New().Set("id", "f1")},
		"no id":            {"f1", ojson.New().Set("dataURL", url)},
		"differs from":     {"f2", attachment("f1", "image/png", url)},
		"no mimeType":      {"f1", ojson.New().Set("id", "f1").Set("dataURL", url)},
		"disagrees":        {"f1", attachment("f1", "image/jpeg", url)},
		"not valid base64": {"f1", attachment("f1", "image/png", "data:image/png;base64,@@@@")},
	}
	for want, c := range cases {
		if _, p := checkAttachment(c.key, c.v); !strings.Contains(p, want) {
			t.Errorf("problem %q, want it to mention %q", p, want)
		}
	}
}
