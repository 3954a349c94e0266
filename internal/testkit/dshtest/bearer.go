package dshtest

import "net/http"

// Bearer is an http.RoundTripper that sends every request with
// "Authorization: Bearer Token" through Base (http.DefaultTransport if
// nil), as an agent configured with a dsh token does.
type Bearer struct {
	Token string
	Base  http.RoundTripper
}

var _ http.RoundTripper = Bearer{}

// RoundTrip adds the header to a copy of r.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	return Headers{Set: map[string]string{"Authorization": "Bearer " + b.Token}, Base: b.Base}.RoundTrip(r)
}

// Headers is an http.RoundTripper that sends every request with the
// headers in Set (a session's Cookie and Origin, say) through Base
// (http.DefaultTransport if nil).
type Headers struct {
	Set  map[string]string
	Base http.RoundTripper
}

var _ http.RoundTripper = Headers{}

// RoundTrip adds the headers to a copy of r.
func (h Headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.Set {
		r.Header.Set(k, v)
	}
	base := h.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}
