package connection

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestCheckProvenance(t *testing.T) {
	origins, err := newOriginSet("http://127.0.0.1:7420")
	if err != nil {
		t.Fatal(err)
	}
	const self = "http://127.0.0.1:7420"
	cases := []struct {
		name    string
		method  string
		headers map[string]string
		want    string // "" = admitted by this stage
	}{
		{"plain GET", "GET", nil, ""},
		{"typed URL", "GET", map[string]string{"Sec-Fetch-Site": "none"}, ""},
		{"same-origin fetch", "GET", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": self}, ""},
		{"cross-origin Origin", "GET", map[string]string{"Origin": "http://evil.example"}, CodeForbiddenOrigin},
		{"null Origin", "POST", map[string]string{"Origin": "null"}, CodeForbiddenOrigin},
		{"cross-site fetch", "GET", map[string]string{"Sec-Fetch-Site": "cross-site"}, CodeForbiddenOrigin},
		{"same-site is not same-origin", "GET", map[string]string{"Sec-Fetch-Site": "same-site"}, CodeForbiddenOrigin},
		{"POST without evidence", "POST", nil, CodeCSRFRejected},
		{"DELETE without evidence", "DELETE", nil, CodeCSRFRejected},
		{"unknown method without evidence", "PURGE", nil, CodeCSRFRejected},
		{"POST from typed URL", "POST", map[string]string{"Sec-Fetch-Site": "none"}, CodeCSRFRejected},
		{"POST same-origin by Origin", "POST", map[string]string{"Origin": self}, ""},
		{"POST same-origin by fetch metadata", "PUT", map[string]string{"Sec-Fetch-Site": "same-origin"}, ""},
		{"POST good Origin but cross-site", "POST", map[string]string{"Origin": self, "Sec-Fetch-Site": "cross-site"}, CodeForbiddenOrigin},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "http://127.0.0.1:7420/x", nil)
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			got := checkProvenance(r, origins)
			switch {
			case tc.want == "" && got != nil:
				t.Fatalf("rejected: %v", got)
			case tc.want != "" && (got == nil || got.Code != tc.want):
				t.Fatalf("got %v, want code %s", got, tc.want)
			case got != nil && got.Status != http.StatusForbidden:
				t.Fatalf("status %d, want 403", got.Status)
			}
		})
	}
}

func TestCheckProvenanceRejectsDuplicateOrigin(t *testing.T) {
	origins, _ := newOriginSet("http://127.0.0.1:7420")
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	r.Header.Add("Origin", "http://127.0.0.1:7420")
	r.Header.Add("Origin", "http://evil.example")
	if rej := checkProvenance(r, origins); rej == nil || rej.Code != CodeForbiddenOrigin {
		t.Fatalf("got %v", rej)
	}
}
