package session

import (
	"context"
	"log/slog"
)

// paneLog is the logger of one pane: the session's, with the pane's and
// its terminal's ids. slog's With formats its attributes into a copy of
// the handler at once, about 300 bytes a pane, and most panes never log;
// this handler keeps the two ids and adds them only to a record that is
// written, first, as With would have.
func paneLog(base *slog.Logger, paneID, termID string) *slog.Logger {
	return slog.New(&paneLogHandler{next: base.Handler(), pane: paneID, term: termID})
}

type paneLogHandler struct {
	next       slog.Handler
	pane, term string
}

func (h *paneLogHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

func (h *paneLogHandler) Handle(ctx context.Context, r slog.Record) error {
	stamped := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	stamped.AddAttrs(h.ids()...)
	r.Attrs(func(a slog.Attr) bool {
		stamped.AddAttrs(a)
		return true
	})
	return h.next.Handle(ctx, stamped)
}

func (h *paneLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.next.WithAttrs(append(h.ids(), attrs...))
}

func (h *paneLogHandler) WithGroup(name string) slog.Handler {
	return h.next.WithAttrs(h.ids()).WithGroup(name)
}

func (h *paneLogHandler) ids() []slog.Attr {
	return []slog.Attr{slog.String("pane", h.pane), slog.String("terminal", h.term)}
}
