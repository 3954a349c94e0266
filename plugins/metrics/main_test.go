package metrics_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// pgtestM runs the tests through pgtest.Main, so goleak checks what is
// left once the throwaway PostgreSQL has stopped.
type pgtestM struct{ m *testing.M }

func (p pgtestM) Run() int { return pgtest.Main(p.m) }

func TestMain(m *testing.M) { goleak.VerifyTestMain(pgtestM{m}) }
