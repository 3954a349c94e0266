package store

import (
	"fmt"
	"strings"
	"testing"
)

func TestSidecarRoundTrip(t *testing.T) {
	sc := &sidecar{Schema: SidecarSchema, Name: "architecture", Revision: 7, SHA256: strings.Repeat("ab", 32),
		ByteLength: 4211, ElementCount: 12, UpdatedAt: "2026-10-28T03:20:11.000Z", UpdatedBy: ActorAgent,
		PreviousRevision: 6, PreviousSHA256: strings.Repeat("cd", 32),
		RecentRequests: []requestRecord{{ID: "agent-2026-10-28-1", Revision: 7, SHA256: strings.Repeat("ab", 32),
			At: "2026-10-28T03:20:11.000Z"}}}
	raw := sc.encode()
	for _, key := range []string{`"schema": "dsh-excalidraw/revision@1"`, `"byteLength": 4211`, `"elementCount": 12`,
		`"previousSha256"`, `"recentRequests"`, `"updatedBy": "agent"`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("encoded sidecar lacks %s:\n%s", key, raw)
		}
	}
	back, err := parseSidecar("architecture", raw)
	if err != nil {
		t.Fatal(err)
	}
	if string(back.encode()) != string(raw) {
		t.Fatal("round trip changed the sidecar")
	}
	if m := back.meta(); m.Revision != 7 || m.UpdatedAt.Year() != 2026 || m.UpdatedBy != ActorAgent {
		t.Fatalf("%+v", m)
	}
}

func TestParseSidecarRejectsDefects(t *testing.T) {
	good := string(validSidecarJSON("a"))
	for name, text := range map[string]string{
		"not json":     "nope",
		"schema":       strings.Replace(good, "revision@1", "revision@2", 1),
		"name":         strings.Replace(good, `"name": "a"`, `"name": "b"`, 1),
		"sha":          strings.Replace(good, strings.Repeat("a", 64), "abc", 1),
		"upper sha":    strings.Replace(good, strings.Repeat("a", 64), strings.Repeat("A", 64), 1),
		"actor":        strings.Replace(good, `"agent"`, `"mallory"`, 1),
		"negative rev": strings.Replace(good, `"revision": 1`, `"revision": -1`, 1),
		"time":         strings.Replace(good, "2026-10-28T03:20:11.000Z", "yesterday", 1),
	} {
		if _, err := parseSidecar("a", []byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestRememberKeepsNewest32WithoutAliasing(t *testing.T) {
	var recent []requestRecord
	for i := range 40 {
		prev := recent
		recent = remember(recent, requestRecord{ID: fmt.Sprint(i)})
		if len(prev) > 0 && prev[0].ID != fmt.Sprint(max(0, i-MaxRecentRequests)) {
			t.Fatalf("previous slice changed at %d", i)
		}
	}
	if len(recent) != MaxRecentRequests || recent[0].ID != "8" || recent[31].ID != "39" {
		t.Fatalf("%d: %s..%s", len(recent), recent[0].ID, recent[len(recent)-1].ID)
	}
}
