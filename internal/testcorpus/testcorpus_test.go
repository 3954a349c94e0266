package testcorpus

import "testing"

func TestFiles(t *testing.T) {
	files := Files(t)
	if len(files) < 10 {
		t.Fatalf("only %d corpus files", len(files))
	}
}
