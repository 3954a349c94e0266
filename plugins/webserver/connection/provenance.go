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

// checkProvenance applies the browser rules: a request must not come from
// another site, and a state-changing request must positively prove it comes
// from our own origin.
//
// We do not rely on http.CrossOriginProtection alone because it admits
// requests that carry neither Origin nor Sec-Fetch-Site (it assumes they are
// not from a browser); with cookie sessions we want such state-changing
// requests refused, so the rules are spelled out here.
func checkProvenance(r *http.Request, origins *originSet) *Rejection {
	safe := isSafeMethod(r.Method)
	proven := false

	if values := r.Header.Values("Origin"); len(values) > 0 {
		if len(values) > 1 || !origins.has(values[0]) {
			return reject(http.StatusForbidden, CodeForbiddenOrigin, "cross-origin requests are not allowed")
		}
		proven = true
	}

	switch site := strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site"))); site {
	case "":
		// Older browser or non-browser client: decided by the rules below.
	case "same-origin":
		proven = true
	case "none":
		// A typed URL or bookmark: fine for reading, never for writing,
		// since a user-initiated navigation cannot be a form submission we
		// asked for.
		if !safe {
			return reject(http.StatusForbidden, CodeCSRFRejected, "state-changing requests must come from the dsh page itself")
		}
	default:
		return reject(http.StatusForbidden, CodeForbiddenOrigin, "cross-site requests are not allowed (Sec-Fetch-Site: "+site+")")
	}

	if !safe && !proven {
		return reject(http.StatusForbidden, CodeCSRFRejected, "state-changing requests need an Origin or Sec-Fetch-Site header proving they are same-origin; programs should use a bearer token")
	}
	return nil
}
