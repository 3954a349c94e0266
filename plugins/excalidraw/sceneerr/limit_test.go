package sceneerr

import "testing"

func TestOverLimit(t *testing.T) {
	e := OverLimit(MaxElements, 10001, 10000)
	if e.Code != TooManyElements || e.Message != "the scene would have 10,001 elements; the limit is 10,000 (maxElements)" {
		t.Fatalf("%+v", e)
	}
	if e.Details["limit"] != "maxElements" || e.Details["max"] != int64(10000) || e.Details["actual"] != int64(10001) {
		t.Fatalf("details %v", e.Details)
	}
	for _, l := range []Limit{MaxSceneBytes, MaxFiles, MaxFileBytes, MaxTextLength, "maxSomethingNew"} {
		if c := OverLimit(l, 2, 1).Code; c != TooLarge {
			t.Errorf("%s: %s", l, c)
		}
	}
	if got := MaxSceneBytes.Describe(33554433, 33554432); got != "the scene has 33,554,433 bytes; the limit is 33,554,432 (maxSceneBytes)" {
		t.Fatal(got)
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 123456789: "123,456,789", -1234: "-1,234"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %s", n, got)
		}
	}
}
