// Command dsh-probe is the container image's HEALTHCHECK: it asks a URL
// (default http://127.0.0.1:7420/healthz) and exits 0 when the answer is
// 200 OK, 1 otherwise. The image has no shell or curl, so it is a
// program of its own, standard library only.
package main

import (
	"fmt"
	"net/http"
	"os"
	"time"
)

// defaultURL is dsh's liveness probe at the image's listen address.
const defaultURL = "http://127.0.0.1:7420/healthz"

func main() {
	url := defaultURL
	if len(os.Args) > 1 {
		url = os.Args[1]
	}
	if err := probe(url); err != nil {
		fmt.Fprintln(os.Stderr, "dsh-probe:", err)
		os.Exit(1)
	}
}

// probe GETs url within 3 s and wants 200.
func probe(url string) error {
	c := &http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return nil
}
