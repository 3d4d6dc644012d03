package panes

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"
)

// TestPaneLog_WritesWhatWithWrote: a pane's logger writes every record
// byte for byte as With the pane's ids did, through its own attributes
// and groups too, and nothing below the level.
func TestPaneLog_WritesWhatWithWrote(t *testing.T) {
	for _, json := range []bool{false, true} {
		var want, got bytes.Buffer
		handler := func(b *bytes.Buffer) slog.Handler {
			opts := &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}}
			if json {
				return slog.NewJSONHandler(b, opts)
			}
			return slog.NewTextHandler(b, opts)
		}
		write := func(l *slog.Logger) {
			l.Error("pane history not restored", "file", "/x", "err", errors.New("gone"))
			l.Debug("not written")
			l.With("k", 1).Warn("with attrs", "v", 2)
			l.WithGroup("g").Info("grouped", "v", 3)
			l.With("k", 1).WithGroup("g").With("j", 2).Info("both", "v", 4)
		}
		write(slog.New(handler(&want)).With("server", "s1").With("pane", "w1:p2", "terminal", "term_7"))
		write(paneLog(slog.New(handler(&got)).With("server", "s1"), "w1:p2", "term_7"))
		if got.String() != want.String() {
			t.Errorf("json=%v: wrote\n%s\nwant\n%s", json, got.String(), want.String())
		}
		if bytes.Count(got.Bytes(), []byte("term_7")) != 4 {
			t.Errorf("json=%v: the terminal id is not on every record:\n%s", json, got.String())
		}
	}
}
