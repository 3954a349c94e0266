// Command throwaway runs a throwaway PostgreSQL cluster (pgtest's) for
// scripts: it prints the cluster's DSN on stdout, one line, and removes
// the cluster when its stdin ends or it gets SIGINT or SIGTERM.
//
//	go run ./internal/testkit/pgtest/throwaway > dsn.txt < fifo &
package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

func main() {
	dsn, stop, err := pgtest.StartCluster()
	if err != nil {
		fmt.Fprintln(os.Stderr, "throwaway:", err)
		os.Exit(1)
	}
	defer stop()
	fmt.Println(dsn)
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); done <- struct{}{} }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() { <-sig; done <- struct{}{} }()
	<-done
}
