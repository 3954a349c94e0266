package live

// Change is the revision record of a scene's head as editors see it: a
// new head as sent to them, and the save an editor reports back as
// verified (httpapi's /health evidence, lastSaved).
type Change struct {
	Name         string `json:"name"`
	Revision     int64  `json:"revision"`
	SHA256       string `json:"sha256"`
	ElementCount int    `json:"elementCount"`
	UpdatedBy    string `json:"updatedBy,omitempty"`
	// UpdatedByName is who wrote it, named by their credential
	// ("claude (for erin)", "erin"), as its history names them.
	UpdatedByName string `json:"updatedByName,omitempty"`
	// At is when the revision was committed (RFC 3339, UTC, milliseconds).
	At string `json:"at,omitempty"`
}
