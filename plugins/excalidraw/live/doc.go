// Package live tells open editors that a scene got a new revision.
//
// A scene can change from three places: an agent's tool call in this
// process, another browser tab's save, and another process writing the
// same drawings directory (for example `dsh mcp` over stdio). The first two
// reach a Hub through the scene service's commit hook; all three reach it
// through a Watcher on the store's sidecar files, which every commit
// replaces by rename. Both may report the same commit, so the Hub keeps
// the newest revision published per scene and drops anything not newer.
//
// A Change carries only the revision record, never the scene: the event
// stream that sends it to a browser (httpapi.SceneEvents) reads what the
// commits since its last event changed (service.Delta) and sends those
// elements, or tells the browser to fetch the scene itself.
//
// Subscribers get a buffer of one with latest-wins coalescing: a slow
// reader only ever needs the newest revision, and Publish never blocks on
// a reader.
package live
