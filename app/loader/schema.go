package loader

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// compiledSchema pairs the validator with the decoded schema document: the
// validator does not expose the keywords normalization needs (default,
// minimum, maximum, properties), so those are read from the document.
type compiledSchema struct {
	validator *jsonschema.Schema
	doc       any
}

// schemaCache keeps compiled schemas keyed by the hash of their bytes.
// Compiling is by far the most expensive step of a reload, plugin schemas
// rarely change while the host runs, and equal bytes always compile to an
// equal schema, so the cache can be shared by every Parse.
var schemaCache sync.Map // [sha256.Size]byte -> *compiledSchema

// compileSchema compiles a JSON Schema (draft 2020-12 unless the schema's
// $schema says otherwise). References to other documents are refused: a
// plugin's schema must be self-contained so that loading a config file never
// reads the network or the disk behind the operator's back.
func compileSchema(raw []byte) (*compiledSchema, error) {
	sum := sha256.Sum256(raw)
	if cs, ok := schemaCache.Load(sum); ok {
		return cs.(*compiledSchema), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	url := "mem://loader/" + hex.EncodeToString(sum[:8]) + ".json"
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(ref string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("schema refers to %s; config schemas must be self-contained", ref)
	}
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	v, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	cs := &compiledSchema{validator: v, doc: doc}
	actual, _ := schemaCache.LoadOrStore(sum, cs)
	return actual.(*compiledSchema), nil
}
