package kit

import (
	"context"
	"log/slog"
)

// LazyWith is base.With(kv...) for a logger that mostly never logs (one
// per pane, tab or workspace), given one or two string attributes as
// key, value pairs: slog's With formats its attributes into a copy of the
// handler at once, about 300 bytes each; this handler holds the strings
// in place (no slice: one allocation) and adds them, first, as With would
// have, only to a record that is written. Other shapes get base.With.
func LazyWith(base *slog.Logger, kv ...string) *slog.Logger {
	if len(kv) == 0 || len(kv) > 4 || len(kv)%2 != 0 {
		args := make([]any, len(kv))
		for i, s := range kv {
			args[i] = s
		}
		return base.With(args...)
	}
	h := &lazyHandler{next: base.Handler()}
	copy(h.kv[:], kv)
	return slog.New(h)
}

type lazyHandler struct {
	next slog.Handler
	kv   [4]string // one or two key, value pairs; an empty key ends them
}

// attrs are the handler's attributes, made for a record being written.
func (h *lazyHandler) attrs() []slog.Attr {
	out := make([]slog.Attr, 0, 2)
	for i := 0; i < len(h.kv) && h.kv[i] != ""; i += 2 {
		out = append(out, slog.String(h.kv[i], h.kv[i+1]))
	}
	return out
}

func (h *lazyHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *lazyHandler) Handle(ctx context.Context, r slog.Record) error {
	stamped := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	stamped.AddAttrs(h.attrs()...)
	r.Attrs(func(a slog.Attr) bool {
		stamped.AddAttrs(a)
		return true
	})
	return h.next.Handle(ctx, stamped)
}

func (h *lazyHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.next.WithAttrs(append(h.attrs(), attrs...))
}

func (h *lazyHandler) WithGroup(name string) slog.Handler {
	return h.next.WithAttrs(h.attrs()).WithGroup(name)
}
