package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/benchkit"
)

// countCodec counts elements by their `{"id":` prefix: cheap, so the
// benchmark measures the store, not a parser. Real codecs are measured by
// their own packages.
type countCodec struct{}

func (countCodec) Inspect(data []byte) (int, error) {
	return bytes.Count(data, []byte(`{"id":`)), nil
}

// benchDoc makes a document of about size bytes in ~200-byte elements.
func benchDoc(size int, tag byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"excalidraw","elements":[`)
	for i := 0; b.Len() < size-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"e%d","type":"rectangle","x":%d,"y":%d,"pad":"%s"}`, i, i, i, bytes.Repeat([]byte{tag}, 140))
	}
	b.WriteString("]}")
	return b.Bytes()
}

var benchSizes = []struct {
	name string
	size int
}{{"100KB", 100 << 10}, {"1MB", 1 << 20}}

// BenchmarkSave is the whole save path: locks, load (hash and sidecar check),
// backup, atomic write, sidecar, read-back verification.
func BenchmarkSave(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			s := testStore(b, func(o *Options) { o.Codec = countCodec{}; o.KeepBackups = 4 })
			docs := [2][]byte{benchDoc(sz.size, 'a'), benchDoc(sz.size, 'b')}
			if _, err := s.Create(bg, CreateRequest{Name: "bench", Data: docs[0], Actor: ActorAgent}); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(docs[0])))
			rev := int64(1)
			for b.Loop() {
				res, err := s.Save(bg, SaveRequest{Name: "bench", ExpectedRevision: rev, Data: docs[rev%2], Actor: ActorAgent})
				if err != nil {
					b.Fatal(err)
				}
				rev = res.Revision
			}
		})
	}
}

// BenchmarkBareWrite is the floor: temp file, write, fsync, rename, fsync of
// the directory, for the same bytes, with nothing else.
func BenchmarkBareWrite(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			dir := b.TempDir()
			target := filepath.Join(dir, "bench.excalidraw")
			docs := [2][]byte{benchDoc(sz.size, 'a'), benchDoc(sz.size, 'b')}
			b.SetBytes(int64(len(docs[0])))
			i := 0
			for b.Loop() {
				if err := bareWrite(dir, target, docs[i%2]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

func bareWrite(dir, target string, data []byte) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return benchkit.DurableWrite(d, filepath.Join(dir, ".bench.tmp"), target, data)
}

func TestBenchDocCountsElements(t *testing.T) {
	d := benchDoc(10<<10, 'a')
	n, _ := countCodec{}.Inspect(d)
	m, err := jsonCodec{}.Inspect(d)
	if err != nil || n != m || n == 0 {
		t.Fatalf("count %d, json %d, %v", n, m, err)
	}
}
