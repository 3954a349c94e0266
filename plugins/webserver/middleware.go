package webserver

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"go.uber.org/zap"
)

// accessLog writes one structured line per request: method, path, route
// pattern, status, latency, bytes, remote, request_id and, once admitted,
// the principal's kind and name. It resolves the error
// first (c.Error) so the logged status is what the client actually got.
func accessLog(log *zap.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			if err := next(c); err != nil {
				c.Error(err)
			}
			req, res := c.Request(), c.Response()
			fields := []zap.Field{
				zap.String("method", req.Method),
				zap.String("path", req.URL.Path),
				zap.Int("status", res.Status),
				zap.Duration("latency", time.Since(start)),
				zap.Int64("bytes", res.Size),
				zap.String("remote", req.RemoteAddr),
				zap.String("request_id", res.Header().Get(echo.HeaderXRequestID)),
			}
			fields = append(fields, noteFields(noteOf(req.Context()))...)
			if res.Status >= http.StatusInternalServerError {
				log.Warn("request", fields...)
				return nil
			}
			log.Info("request", fields...)
			return nil
		}
	}
}

// recoverPanics turns a panicking plugin handler into a 500 for that one
// request instead of a crashed process (net/http would only kill the
// connection, and a panic elsewhere in a goroutine would kill dsh).
func recoverPanics(log *zap.Logger) echo.MiddlewareFunc {
	return middleware.RecoverWithConfig(middleware.RecoverConfig{
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			log.Error("handler panicked",
				zap.String("method", c.Request().Method),
				zap.String("path", c.Request().URL.Path),
				zap.Error(err), zap.ByteString("stack", stack))
			return fmt.Errorf("panic: %w", err)
		},
	})
}

// bodyLimit caps request bodies. A declared Content-Length over the limit is
// refused before the handler runs; a body without one (chunked) is cut off
// by http.MaxBytesReader, whose error maps to 413 when the handler returns
// it. The reader is given the raw net/http writer so the server knows to
// close the connection instead of draining an oversized body.
func bodyLimit(limit int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if req.ContentLength > limit {
				return &http.MaxBytesError{Limit: limit}
			}
			if req.Body != nil && req.Body != http.NoBody {
				req.Body = http.MaxBytesReader(c.Response().Writer, req.Body, limit)
			}
			return next(c)
		}
	}
}
