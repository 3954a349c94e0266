package connection_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// A program authenticates with a bearer token created by `dsh token create`.
// Only the token's hash is ever written to disk.
func ExampleTokenStore() {
	dir, _ := os.MkdirTemp("", "dsh-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store := connection.OpenTokenStore(filepath.Join(dir, "tokens.json"))

	plaintext, rec, _ := store.Create(ctx, "ci")
	fmt.Println(strings.HasPrefix(plaintext, "dsh_"), rec.Name, rec.SHA256 == connection.HashToken(plaintext))

	_, ok := store.Verify(ctx, plaintext)
	fmt.Println("verifies:", ok)

	_, _ = store.Revoke(ctx, "ci")
	_, ok = store.Verify(ctx, plaintext)
	fmt.Println("after revoke:", ok)
	// Output:
	// true ci true
	// verifies: true
	// after revoke: false
}

// The server asks the Service about every request to a protected route.
func ExampleService_RequestRejection() {
	svc, _ := connection.New(connection.Config{}, nil)
	defer svc.Close()
	svc.SetOrigins("http://127.0.0.1:7420")

	// A page on another site tries to use the user's browser against dsh.
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:7420/api/run", nil)
	r.Header.Set("Origin", "https://evil.example")
	fmt.Println(svc.RequestRejection(r).Code)

	// A DNS-rebinding attack arrives with the attacker's host name.
	r = httptest.NewRequest(http.MethodGet, "http://rebind.evil.example:7420/api", nil)
	fmt.Println(svc.RequestRejection(r).Code)

	// A same-origin browser request without a session must log in first.
	r = httptest.NewRequest(http.MethodGet, "http://127.0.0.1:7420/api", nil)
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	fmt.Println(svc.RequestRejection(r).Code)
	// Output:
	// forbidden_origin
	// forbidden_host
	// unauthenticated
}

// A login link is printed to the terminal; opening it in the browser starts
// a session. The link works once.
func ExampleService_NewLoginLink() {
	ctx := context.Background()
	svc, _ := connection.New(connection.Config{}, nil)
	defer svc.Close()
	link := svc.NewLoginLink(ctx, "http://127.0.0.1:7420")

	login := svc.LoginHandler()
	for range 2 {
		w := httptest.NewRecorder()
		login.ServeHTTP(w, httptest.NewRequest(http.MethodGet, link, nil))
		fmt.Println(w.Code, len(w.Result().Cookies()))
	}
	fmt.Println("sessions:", svc.Sessions(ctx))
	// Output:
	// 303 1
	// 403 0
	// sessions: 1
}
