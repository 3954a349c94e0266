package webserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
)

// fetch GETs url with an optional bearer token and returns status and body.
func fetch(c *http.Client, url, token string) string {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("X-Request-ID", "req-1") // the request's id, named in an error's details
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, b)
}

// A plugin mounts its routes when it loads and unmounts them when it
// unloads, while the server keeps serving.
func Example() {
	srv := webserver.New(webserver.Config{Listen: "127.0.0.1:0"}, nil, nil)
	if err := srv.Start(context.Background()); err != nil {
		panic(err)
	}
	defer srv.Shutdown(context.Background())
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	mount, err := srv.Mount("dsh-hello", webserver.Route{
		Method: "GET",
		Path:   "/dsh-hello/:name",
		Public: true, // no admission service in this example
		Handler: func(c echo.Context) error {
			return c.String(http.StatusOK, "hello "+c.Param("name"))
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(fetch(client, srv.URL()+"/dsh-hello/world", ""))

	_ = mount.Unmount(context.Background())
	fmt.Print(fetch(client, srv.URL()+"/dsh-hello/world", ""))
	// Output:
	// 200 hello world
	// 404 {"error":{"code":"not_found","message":"no route for this path","details":{"request_id":"req-1"}}}
}

// Composing the server with the connection service: protected routes need a
// session (from the login link) or a bearer token.
func ExampleServer_MountLogin() {
	conn, _ := connection.New(connection.Config{
		Tokens: []connection.TokenRecord{{ID: "ci", Name: "ci", SHA256: connection.HashToken("dsh_example")}},
	}, nil)
	defer conn.Close()
	srv := webserver.New(webserver.Config{Listen: "127.0.0.1:0"}, nil,
		func() connection.Admitter { return conn })
	if err := srv.Start(context.Background()); err != nil {
		panic(err)
	}
	defer srv.Shutdown(context.Background())
	if _, err := srv.MountLogin(conn); err != nil {
		panic(err)
	}
	_, _ = srv.Mount("dsh-notes", webserver.Route{Method: "GET", Path: "/dsh-notes/api", Handler: func(c echo.Context) error {
		return c.String(http.StatusOK, "notes")
	}})
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	fmt.Print(fetch(client, srv.URL()+"/dsh-notes/api", ""))
	fmt.Println(fetch(client, srv.URL()+"/dsh-notes/api", "dsh_example"))
	// Output:
	// 401 {"error":{"code":"unauthenticated","message":"log in with a dsh login link or send a bearer token","details":{"request_id":"req-1"}}}
	// 200 notes
}
