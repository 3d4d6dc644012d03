package kit

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"
)

// TestLazyWith_WritesWhatWithWrote: a lazy logger writes every record
// byte for byte as With the same attributes did, through its own
// attributes and groups too, and nothing below the level.
func TestLazyWith_WritesWhatWithWrote(t *testing.T) {
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
		// Two pairs (a pane's), one (a tab's), and a shape it hands to With.
		for _, kv := range [][]string{{"pane", "w1:p2", "terminal", "term_7"}, {"tab", "w1:t2"}, {"a", "v-a", "b"}} {
			want.Reset()
			got.Reset()
			args := make([]any, len(kv))
			for i, s := range kv {
				args[i] = s
			}
			write(slog.New(handler(&want)).With("server", "s1").With(args...))
			write(LazyWith(slog.New(handler(&got)).With("server", "s1"), kv...))
			if got.String() != want.String() {
				t.Errorf("json=%v %q: wrote\n%s\nwant\n%s", json, kv, got.String(), want.String())
			}
			if bytes.Count(got.Bytes(), []byte(kv[1])) != 4 || bytes.Contains(got.Bytes(), []byte("not written")) {
				t.Errorf("json=%v %q: the first value is not on every record, or a debug record was written:\n%s", json, kv, got.String())
			}
		}
	}
}
