package raster_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Painting in bands and encoding in parallel leave no goroutine behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
