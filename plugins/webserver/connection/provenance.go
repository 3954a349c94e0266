package connection

import (
	"net/http"
	"strings"
)

// isSafeMethod reports methods that must not change state. Everything else
// (including methods we have never heard of) is treated as state-changing so
// the CSRF rule fails closed.
func isSafeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

// provenance is what a request's Origin and Sec-Fetch-Site headers say
// about where it comes from, once hostile answers have been refused.
type provenance struct {
	sameOrigin bool // positively from one of our own origins
	typed      bool // Sec-Fetch-Site: none, a navigation the user started
}

// readProvenance refuses a request that says it comes from another site:
// an Origin that is not ours (or several Origins), or Sec-Fetch-Site
// cross-site or same-site. Such a request is refused whatever it carries,
// credentials or none. Otherwise it reports what the headers prove.
func readProvenance(r *http.Request, origins *originSet) (provenance, *Rejection) {
	var p provenance
	if values := r.Header.Values("Origin"); len(values) > 0 {
		if len(values) > 1 || !origins.has(values[0]) {
			return p, reject(http.StatusForbidden, CodeForbiddenOrigin, "cross-origin requests are not allowed")
		}
		p.sameOrigin = true
	}
	switch site := strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site"))); site {
	case "":
		// Older browser or non-browser client: decided by the caller.
	case "same-origin":
		p.sameOrigin = true
	case "none":
		p.typed = true
	default:
		return p, reject(http.StatusForbidden, CodeForbiddenOrigin, "cross-site requests are not allowed (Sec-Fetch-Site: "+site+")")
	}
	return p, nil
}

// checkProvenance applies the browser rules to a cookie-authenticated
// request: it must not come from another site, and a state-changing request
// must positively prove it comes from our own origin (CSRF).
//
// We do not rely on http.CrossOriginProtection alone because it admits
// requests that carry neither Origin nor Sec-Fetch-Site (it assumes they are
// not from a browser); with cookie sessions we want such state-changing
// requests refused, so the rules are spelled out here.
func checkProvenance(r *http.Request, origins *originSet) *Rejection {
	p, rej := readProvenance(r, origins)
	if rej != nil || isSafeMethod(r.Method) {
		return rej
	}
	if p.typed {
		// A typed URL or bookmark: fine for reading, never for writing,
		// since a user-initiated navigation cannot be a form submission we
		// asked for.
		return reject(http.StatusForbidden, CodeCSRFRejected, "state-changing requests must come from the dsh page itself")
	}
	if !p.sameOrigin {
		return reject(http.StatusForbidden, CodeCSRFRejected, "state-changing requests need an Origin or Sec-Fetch-Site header proving they are same-origin; programs should use a bearer token")
	}
	return nil
}
