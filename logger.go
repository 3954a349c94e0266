package dsh

import (
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"golang.org/x/term"
)

// NewLogger builds the host's logger: human-readable console output when
// stderr is a terminal, JSON lines otherwise (for log collectors). Logs
// always go to stderr, so `dsh mcp` keeps stdout for the protocol.
func NewLogger(c LogConfig) (*zap.Logger, error) {
	level := zap.NewAtomicLevel()
	if c.Level != "" {
		if err := level.UnmarshalText([]byte(c.Level)); err != nil {
			return nil, err
		}
	}
	console := c.Format == "console" || (c.Format != "json" && term.IsTerminal(int(os.Stderr.Fd())))
	var enc zapcore.Encoder
	if console {
		ec := zap.NewDevelopmentEncoderConfig()
		ec.EncodeLevel = zapcore.CapitalColorLevelEncoder
		ec.EncodeTime = zapcore.TimeEncoderOfLayout("15:04:05.000")
		enc = zapcore.NewConsoleEncoder(ec)
	} else {
		ec := zap.NewProductionEncoderConfig()
		ec.EncodeTime = zapcore.ISO8601TimeEncoder
		enc = zapcore.NewJSONEncoder(ec)
	}
	core := zapcore.NewCore(enc, zapcore.Lock(os.Stderr), level)
	return zap.New(core, zap.ErrorOutput(zapcore.Lock(os.Stderr))), nil
}
