package server

import (
	"context"
	"log/slog"
	"strings"
)

// libLog is the handler protoactor logs through. Its dead-letter lines
// (a message to an actor that has just stopped: routine whenever a pane
// closes while output or a timer was on its way) go to debug level, so
// the server log keeps only what a person should read.
type libLog struct{ slog.Handler }

func (h libLog) Handle(ctx context.Context, r slog.Record) error {
	if strings.HasPrefix(r.Message, "[DeadLetter]") {
		r.Level = slog.LevelDebug
		if !h.Handler.Enabled(ctx, r.Level) {
			return nil
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h libLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return libLog{h.Handler.WithAttrs(attrs)}
}

func (h libLog) WithGroup(name string) slog.Handler { return libLog{h.Handler.WithGroup(name)} }
