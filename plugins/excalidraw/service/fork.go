package service

import (
	"slices"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// A write's cost follows what it changes (scene/fork.go): when the
// stored bytes are those of a document this service finished, the write
// edits a fork of that sealed document, owning (copying) only the
// elements it names and those related to them. If the edit reaches a
// frozen element after all, the write starts over on a fresh fork that
// owns that element too, and after maxForkTries on a private copy of
// the whole scene, so a wrong guess costs time, never a wrong scene.

// maxForkTries bounds the forks one write tries before the private copy.
const maxForkTries = 4

// forkStats counts how writes ran, for tests and benchmarks.
type forkStats struct {
	forked  atomic.Int64 // writes done on a fork
	retried atomic.Int64 // forks abandoned for a frozen element
	copied  atomic.Int64 // writes done on a private copy
}

// editStored runs write (an engine edit and finish) on the stored
// document of data and returns the document it finished. named are the
// ids the write is known to change; write may run more than once, each
// time on a fresh document with the same seed (so with the same ids and
// nonces drawn), and must not keep anything from a run that did not
// return.
func (s *Service) editStored(data []byte, named []string, write func(doc *scene.Document, sd seed) error) (*scene.Document, error) {
	sd := s.seed()
	base, err := s.viewStored(data)
	if err != nil {
		return nil, sceneerr.New(sceneerr.CorruptScene, "stored scene does not parse").With("cause", err.Error())
	}
	if base.Sealed() && !s.noForks {
		own := append([]string(nil), named...)
		for range maxForkTries {
			doc := base.Fork()
			doc.OwnRelated(own)
			fe, err := tryWrite(doc, sd, write)
			if fe == nil {
				s.forks.forked.Add(1)
				return doc, err
			}
			s.forks.retried.Add(1)
			id, _ := fe.Root.String("id")
			if id == "" || slices.Contains(own, id) {
				break
			}
			own = append(own, id)
		}
		s.log.Debug("write reached shared elements; editing a private copy", zap.Strings("owned", own))
	}
	s.forks.copied.Add(1)
	doc := base.Clone()
	return doc, write(doc, sd)
}

// tryWrite runs write on a fork and reports the frozen element it
// reached, if it did (the fork is then abandoned).
func tryWrite(doc *scene.Document, sd seed, write func(*scene.Document, seed) error) (fe *ojson.FrozenError, err error) {
	defer func() {
		if r := recover(); r != nil {
			var ok bool
			if fe, ok = ojson.AsFrozenPanic(r); !ok {
				panic(r)
			}
			if fe.Root == nil {
				fe.Root = ojson.New()
			}
		}
	}()
	return nil, write(doc, sd)
}
