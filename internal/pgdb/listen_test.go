package pgdb

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// A server that takes the connection and never answers (a relay whose
// far side is gone) does not hold the Listener for ever: each connect is
// given up after ConnectTimeout and tried again, and Run still returns
// when its context ends.
func TestListenerGivesUpASilentConnect(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	attempts := make(chan struct{}, 100)
	var held []net.Conn
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // read nothing, answer nothing
			mu.Unlock()
			attempts <- struct{}{}
		}
	})
	defer func() {
		silent.Close()
		wg.Wait()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	}()
	cfg, err := pgxpool.ParseConfig("postgres://dsh@" + silent.Addr().String() + "/dsh?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg) // connects lazily: never here
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	l := NewListener(pool, "dsh_test", ListenerOptions{ConnectTimeout: 50 * time.Millisecond, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx, func(string) { t.Error("a notification from a silent server") }, nil) }()
	for range 3 {
		select {
		case <-attempts:
		case <-time.After(30 * time.Second):
			t.Fatal("the Listener waits on a connection that never answers")
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}
