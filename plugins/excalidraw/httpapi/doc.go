// Package httpapi is the browser half of the Excalidraw plugin (contract
// sections 5, 6 and 8): a JSON API under /dsh-excalidraw/api that lets the
// editor page list, read, create and save scenes through the same
// service.Service the agent tools use, plus a narrow static-asset route for
// the editor's CSS, fonts and locale files.
//
// Routes are returned as webserver.Route values and none is Public: every
// request is admitted by the host's connection service first, because the
// API writes files in the user's drawings directory.
//
// Handlers return errors and the web server renders them: a
// *sceneerr.Error is the host's coded error (apierr.Coded), so failures
// are {"error":{"code","message","details"?}} with the status of the
// sceneerr code, and the browser branches on one shape and on the same
// codes the tools report (a person navigating gets the host's error page).
package httpapi
