// Package webserver is the dsh "webServer" service: one HTTP server that
// plugins mount routes on and unmount from while it is serving.
//
// Plugins come and go at runtime, and a mounted route is an effect that must
// be undone when its plugin unloads. echo cannot remove routes, and adding a
// route to an echo instance that is serving is a data race (its router tree
// is mutated without locks while ServeHTTP reads it). So the outer echo
// instance — middleware and a catch-all route — is built once and never
// changed, and every plugin route is served through a dispatcher that loads
// an immutable routing table from an atomic.Pointer. Mount and Unmount build
// a new table (a fresh inner *echo.Echo used only as a router) and swap the
// pointer; a published table is never mutated.
//
// Admission (see package connection) is applied only to matched, non-public
// routes: an unknown path is a 404 for everyone and a wrong method a 405,
// rather than hiding the route map behind a 401. That reveals which plugin
// paths exist, which is not a secret; it never runs plugin code. Public
// routes need no credential but still pass admission's PublicRejection:
// the Host, no foreign Origin, and no write a browser marks cross-site.
package webserver
