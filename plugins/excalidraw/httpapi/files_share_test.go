package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
)

// A share link's file is written once: a second PUT at its path is 409
// already_exists and leaves the file and the directory as they were.
func TestFilesShareLinksAreCreateOnly(t *testing.T) {
	e := newFilesEnv(t, filesOpts{perHour: 1 << 20, maxFileBytes: 64 << 10})
	path := FilesPrefix + "shareLinks/link/image"
	first := noise(1, 5000)
	expect(t, e.put(path, "", "image/png", first), http.StatusCreated, "")
	before := dshtest.Tree(t, e.root)
	for _, who := range []string{"", asOwner} {
		r := e.put(path, who, "image/png", noise(2, 6000))
		expect(t, r, http.StatusConflict, "already_exists")
	}
	dshtest.SameTree(t, "the files directory", before, dshtest.Tree(t, e.root))
	if g := e.get(path, ""); g.status != http.StatusOK || string(g.raw) != string(first) {
		t.Fatalf("the first file was replaced: %d", g.status)
	}
	// A board's files are still replaced by a later write.
	expect(t, e.put(roomFile, asEditor, "", []byte("one")), http.StatusCreated, "")
	expect(t, e.put(roomFile, asEditor, "", []byte("two")), http.StatusOK, "")
}

// Each client address may upload so many bytes an hour to share links:
// past them, 429 rate_limited with retryAfterSec (and Retry-After), and
// nothing stored. A refused upload (409) counts nothing; a board's files
// are not counted.
func TestFilesShareLinksPerAddressLimit(t *testing.T) {
	// 64 KiB files, 128 KiB an hour: two 60 KB files.
	e := newFilesEnv(t, filesOpts{perHour: 128 << 10, maxFileBytes: 64 << 10})
	file := func(name string) string { return FilesPrefix + "shareLinks/l/" + name }
	expect(t, e.put(file("a"), "", "", noise(1, 60_000)), http.StatusCreated, "")
	expect(t, e.put(file("a"), "", "", noise(1, 60_000)), http.StatusConflict, "already_exists")
	expect(t, e.put(file("b"), "", "", noise(2, 60_000)), http.StatusCreated, "")
	before := dshtest.Tree(t, e.root)
	r := e.put(file("c"), "", "", noise(3, 60_000))
	expect(t, r, http.StatusTooManyRequests, "rate_limited")
	after, ok := r.details()["retryAfterSec"].(float64)
	if !ok || after < 1 || after > 3600 || r.header.Get("Retry-After") != strconv.Itoa(int(after)) {
		t.Fatalf("retryAfterSec %v, Retry-After %q", r.details()["retryAfterSec"], r.header.Get("Retry-After"))
	}
	if r.details()["limit"] != files.ShareLinkAddressLimitName {
		t.Fatalf("details %v", r.details())
	}
	dshtest.SameTree(t, "the files directory", before, dshtest.Tree(t, e.root))
	expect(t, e.get(file("c"), ""), http.StatusNotFound, "not_found")
	// A board's files are behind credentials and not counted.
	expect(t, e.put(roomFile, asEditor, "", noise(4, 60_000)), http.StatusCreated, "")
}

// The flood the probe made: one address sending file after file gets a
// bounded number of bytes stored, then 429s; many addresses together
// stop at the share links' total, 507 insufficient_storage.
func TestFilesShareLinksFloodIsBounded(t *testing.T) {
	const perHour, total = 256 << 10, 400 << 10
	e := newFilesEnv(t, filesOpts{perHour: perHour, shareMax: total, maxFileBytes: 64 << 10})
	stored := int64(0)
	for i := range 100 {
		r := e.put(FilesPrefix+"shareLinks/flood/f"+strconv.Itoa(i), "", "", noise(uint64(i), 64<<10))
		if r.status == http.StatusTooManyRequests {
			break
		}
		expect(t, r, http.StatusCreated, "")
		stored += 64 << 10
	}
	if stored > perHour {
		t.Fatalf("one address stored %d bytes, the limit is %d", stored, perHour)
	}
	// Other addresses: the total holds, whatever they send at once.
	var wg sync.WaitGroup
	codes := make([]reply, 12)
	for i := range codes {
		// Loopback has many addresses: each request comes from its own.
		c := fromAddress(t, fmt.Sprintf("127.0.0.%d", 2+i))
		wg.Go(func() {
			req, err := http.NewRequest(http.MethodPut, e.base+FilesPrefix+"shareLinks/many/f"+strconv.Itoa(i), bytes.NewReader(noise(uint64(100+i), 64<<10)))
			if err != nil {
				t.Error(err)
				return
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			codes[i] = reply{status: resp.StatusCode, raw: raw}
			_ = json.Unmarshal(raw, &codes[i].body)
		})
	}
	wg.Wait()
	full := 0
	for _, r := range codes {
		switch {
		case r.status == http.StatusCreated:
		case r.status == 507 && r.code() == files.CodeInsufficientStorage && r.details()["limit"] == files.ShareLinkTotalLimitName:
			full++
		default:
			t.Fatalf("%d %s", r.status, r.raw)
		}
	}
	if full == 0 {
		t.Fatal("nothing refused past the total")
	}
	var sum int64
	for info, err := range e.st.List(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(info.Path, "shareLinks/") {
			sum += info.Size
		}
	}
	if sum > total {
		t.Fatalf("%d bytes of share links stored, the total is %d", sum, total)
	}
}

// fromAddress is a client whose connections come from the loopback
// address ip.
func fromAddress(t *testing.T, ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}
