package kit

import (
	"context"
	"log/slog"
)

// LazyWith is base.With(attrs...) for a logger that mostly never logs (one
// per pane, tab or workspace): slog's With formats its attributes into a
// copy of the handler at once, about 300 bytes each; this handler keeps
// the attributes and adds them, first, as With would have, only to a
// record that is written.
func LazyWith(base *slog.Logger, attrs ...slog.Attr) *slog.Logger {
	return slog.New(&lazyHandler{next: base.Handler(), attrs: attrs})
}

type lazyHandler struct {
	next  slog.Handler
	attrs []slog.Attr
}

func (h *lazyHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *lazyHandler) Handle(ctx context.Context, r slog.Record) error {
	stamped := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	stamped.AddAttrs(h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		stamped.AddAttrs(a)
		return true
	})
	return h.next.Handle(ctx, stamped)
}

func (h *lazyHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.next.WithAttrs(append(append([]slog.Attr(nil), h.attrs...), attrs...))
}

func (h *lazyHandler) WithGroup(name string) slog.Handler {
	return h.next.WithAttrs(h.attrs).WithGroup(name)
}
