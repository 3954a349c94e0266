// Package loader reads the host's single YAML configuration file, checks it
// against the JSON Schemas that plugins declare, and keeps it in sync with the
// running plugin runtime while the file is edited.
//
// The file has two sections:
//
//	host:            # host settings, checked against a schema the caller provides
//	  listen: ":8080"
//	plugins:         # plugin entries, checked against each plugin's own schema
//	  - name: webserver
//	    config:
//	      port: 8080
//	  - id: tools-dev
//	    name: tools
//	    disabled: true
//
// Parsing is deliberately forgiving where forgiveness is safe and strict where
// a mistake would silently change behaviour: missing settings get the schema's
// defaults, out-of-range numbers are clamped to the nearest bound and settings a
// plugin no longer knows are dropped (both with a warning, so an old file keeps
// working after a plugin upgrade), while wrong types, enum violations, unknown
// plugins, duplicate ids and YAML syntax errors reject the whole file with one
// [Error] that lists every [Problem] by entry id and JSON pointer.
//
// [Diff] compares two versions of the file entry by entry, and [Watch] follows
// the file on disk, handing only the entries that changed to an [Applier]. An
// edit that does not parse never reaches the runtime: the last good file stays
// in force until a valid edit replaces it.
//
// The package imports no other package of the project so that the runtime,
// the CLI and tests can all depend on it without cycles.
package loader
