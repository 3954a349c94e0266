package apierr

// CodeInvalidName is the one code of a name dsh refuses, on every
// surface: a token's, a person's, a board's or folder's, a scene's
// (400). The rule every such name obeys is names.Check's; each kind of
// name may add its own (a scene name's characters, a login name's).
const CodeInvalidName = "invalid_name"
