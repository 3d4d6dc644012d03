package panes

import (
	"context"
	"log/slog"
)

// paneLog is kit.LazyWith(base, pane, terminal) for the logger every pane
// carries: the two ids held as strings rather than a slice of attributes,
// one allocation less and 80 bytes smaller per pane. Records a pane writes
// (rarely) get the ids first, as With would have put them.
func paneLog(base *slog.Logger, pane, term string) *slog.Logger {
	return slog.New(&paneHandler{next: base.Handler(), pane: pane, term: term})
}

type paneHandler struct {
	next       slog.Handler
	pane, term string
}

func (h *paneHandler) attrs() []slog.Attr {
	return []slog.Attr{slog.String("pane", h.pane), slog.String("terminal", h.term)}
}

func (h *paneHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *paneHandler) Handle(ctx context.Context, r slog.Record) error {
	stamped := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	stamped.AddAttrs(slog.String("pane", h.pane), slog.String("terminal", h.term))
	r.Attrs(func(a slog.Attr) bool {
		stamped.AddAttrs(a)
		return true
	})
	return h.next.Handle(ctx, stamped)
}

func (h *paneHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.next.WithAttrs(append(h.attrs(), attrs...))
}

func (h *paneHandler) WithGroup(name string) slog.Handler {
	return h.next.WithAttrs(h.attrs()).WithGroup(name)
}
