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
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	base := b.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}
