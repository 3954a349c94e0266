package scene

import "github.com/dshgo/dsh/plugins/excalidraw/sceneerr"

// Codec reads and writes scenes for the store under fixed limits.
type Codec struct {
	Limits Limits
}

// Inspect parses data under the limits and returns its element count
// ([Document.ElementCount], tombstones included). The store calls it on
// what it reads back after a write: equal counts and no error mean the
// bytes on disk are a readable scene holding what was written.
func (c Codec) Inspect(data []byte) (int, error) {
	d, err := Parse(data, c.Limits)
	if err != nil {
		return 0, err
	}
	return d.ElementCount(), nil
}

// Decode parses data under the limits.
func (c Codec) Decode(data []byte) (*Document, error) {
	return Parse(data, c.Limits)
}

// Encode serializes d after the checks Parse applies (elements are typed
// objects, the limits hold, the attachments are images), so the store
// never writes a scene it could not read back.
func (c Codec) Encode(d *Document) ([]byte, error) {
	b, _, err := c.encode(d, false)
	return b, err
}

// EncodeSplit is Encode that also returns the bytes' split (see
// [Document.MarshalSplit]).
func (c Codec) EncodeSplit(d *Document) ([]byte, *Split, error) {
	return c.encode(d, true)
}

func (c Codec) encode(d *Document, split bool) ([]byte, *Split, error) {
	lim := c.Limits.Effective()
	if err := admit(d, lim); err != nil {
		return nil, nil, err
	}
	b, sp, err := d.marshal(split)
	if err != nil {
		return nil, nil, err
	}
	if int64(len(b)) > lim.MaxSceneBytes {
		return nil, nil, sceneerr.OverLimit(sceneerr.MaxSceneBytes, int64(len(b)), lim.MaxSceneBytes)
	}
	return b, sp, nil
}
