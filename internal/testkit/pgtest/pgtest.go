// Package pgtest gives tests a real PostgreSQL: a fresh database on a
// throwaway cluster the test binary starts (initdb in a temporary
// directory, on a free loopback port, as the postgres user when the test
// runs as root, which PostgreSQL refuses to be) and stops when it ends,
// or on the server DSH_PG_DSN names. Without either, the test ends as
// testenv says (skips on a developer's machine, fails under make test and
// CI). Restart and Terminate do to the server what an outage does to
// its clients.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// EnvDSN names a server to use instead of a throwaway cluster: a DSN whose
// user may create databases.
const EnvDSN = "DSH_PG_DSN"

// EnvFsync set to "on" starts the throwaway cluster with fsync on (it is
// off otherwise): benchmarks of durable writes set it.
const EnvFsync = "DSH_PG_FSYNC"

// cluster is the one throwaway server of this test binary.
var cluster struct {
	once sync.Once
	dsn  string // the admin DSN (database postgres)
	err  error
	stop func()
	// restart stops the server (fast: sessions are disconnected), calls
	// whileDown, and starts it again on the same port and data.
	restart func(whileDown func()) error
}

// Main runs the tests and then stops the throwaway cluster, if one was
// started: call it from TestMain (os.Exit(pgtest.Main(m))).
func Main(m *testing.M) int {
	code := m.Run()
	if cluster.stop != nil {
		cluster.stop()
	}
	return code
}

// DSN is the address of a new, empty database for t, dropped when t ends.
func DSN(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(EnvDSN)
	if admin == "" {
		cluster.once.Do(func() { cluster.dsn, cluster.stop, cluster.restart, cluster.err = start() })
		if cluster.err != nil {
			testenv.Missing(t, "no PostgreSQL for the tests: "+cluster.err.Error()+" (apt-get install postgresql, or set "+EnvDSN+")")
		}
		admin = cluster.dsn
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("pgtest: connect to %s: %v", redact(admin), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("pgtest: drop %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the DSN"
	}
	return u.Redacted()
}

// binDir finds PostgreSQL's programs: on PATH, else Debian's
// /usr/lib/postgresql/<version>/bin (the newest).
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestV := "", -1
	for _, d := range dirs {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err == nil && v > bestV {
			if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
				best, bestV = d, v
			}
		}
	}
	if best == "" {
		return "", errors.New("initdb is not installed")
	}
	return best, nil
}

// Restartable says why Restart cannot restart the server the tests use,
// or nil if it can: only the throwaway cluster (not one DSH_PG_DSN names,
// which belongs to someone else) once DSN has started it. A test that
// needs it ends as testenv says when it cannot:
//
//	if err := pgtest.Restartable(); err != nil {
//		testenv.Missing(t, err.Error())
//	}
func Restartable() error {
	switch {
	case os.Getenv(EnvDSN) != "":
		return errors.New("pgtest: " + EnvDSN + " names an outside server, which the tests may not restart (unset it to use a throwaway cluster)")
	case cluster.restart == nil:
		return errors.New("pgtest: no throwaway cluster is running (call DSN first)")
	}
	return nil
}

// Restart stops the throwaway cluster (pg_ctl stop -m fast: every session
// is disconnected), calls whileDown while nothing answers, and starts it
// again at the same address with the same databases. It fails t when the
// server is not one it may restart (see Restartable). It disturbs every
// database of the cluster, so a test using it must not run in parallel
// with others.
func Restart(t testing.TB, whileDown func()) {
	t.Helper()
	if err := Restartable(); err != nil {
		t.Fatal(err)
	}
	if whileDown == nil {
		whileDown = func() {}
	}
	if err := cluster.restart(whileDown); err != nil {
		t.Fatalf("pgtest: restart: %v", err)
	}
}

// Terminate ends every other session on dsn's database
// (pg_terminate_backend): what a server restart or a network cut does to
// the clients' connections, without the wait.
func Terminate(t testing.TB, dsn string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("pgtest: connect to %s: %v", redact(dsn), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		t.Fatalf("pgtest: terminate: %v", err)
	}
}

// start makes and starts the throwaway cluster.
func start() (dsn string, stop func(), restart func(func()) error, err error) {
	bin, err := binDir()
	if err != nil {
		return "", nil, nil, err
	}
	dir, err := os.MkdirTemp("", "dsh-pgtest-")
	if err != nil {
		return "", nil, nil, err
	}
	// As root, the cluster belongs to the postgres user.
	var run func(name string, args ...string) *exec.Cmd
	if os.Geteuid() == 0 {
		pg, err := user.Lookup("postgres")
		if err != nil {
			return "", nil, nil, errors.New("running as root, and there is no postgres user to run PostgreSQL as")
		}
		uid, _ := strconv.Atoi(pg.Uid)
		gid, _ := strconv.Atoi(pg.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return "", nil, nil, err
		}
		run = func(name string, args ...string) *exec.Cmd {
			return exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(bin, name)}, args...)...)
		}
	} else {
		run = func(name string, args ...string) *exec.Cmd { return exec.Command(filepath.Join(bin, name), args...) }
	}
	data := filepath.Join(dir, "data")
	if out, err := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, nil, fmt.Errorf("initdb: %v: %s", err, lastLines(out))
	}
	port, err := freePort()
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, nil, err
	}
	// fsync off: the tests' data is thrown away. EnvFsync=on keeps it,
	// for benchmarks that compare durable writes with the file store's.
	fsync := "off"
	if os.Getenv(EnvFsync) == "on" {
		fsync = "on"
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=%s -c max_connections=200", port, dir, fsync)
	logFile := filepath.Join(dir, "log")
	startServer := func() error {
		if out, err := run("pg_ctl", "-D", data, "-o", opts, "-l", logFile, "-w", "-t", "60", "start").CombinedOutput(); err != nil {
			log, _ := os.ReadFile(logFile)
			return fmt.Errorf("pg_ctl start: %v: %s %s", err, lastLines(out), lastLines(log))
		}
		return nil
	}
	if err := startServer(); err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, nil, err
	}
	stop = func() {
		_ = run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop").Run()
		_ = os.RemoveAll(dir)
	}
	restart = func(whileDown func()) (err error) {
		if out, err := run("pg_ctl", "-D", data, "-m", "fast", "-w", "-t", "60", "stop").CombinedOutput(); err != nil {
			return fmt.Errorf("pg_ctl stop: %v: %s", err, lastLines(out))
		}
		// Started again however whileDown ends (a t.Fatal in it too).
		defer func() {
			if serr := startServer(); serr != nil && err == nil {
				err = serr
			}
		}()
		whileDown()
		return nil
	}
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port), stop, restart, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLines(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}

// StartCluster starts a throwaway cluster of its own (as DSN's, on a free
// loopback port, as the postgres user under root) for a program rather
// than a test (the README check): dsn is its admin database's; stop
// removes it.
func StartCluster() (dsn string, stop func(), err error) {
	dsn, stop, _, err = start()
	return dsn, stop, err
}
