package session

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Notifications and the window title go to the foreground client: the
// interactive client that attached last. Until one is attached there is
// nobody to show them to.

var notifyHandlers = map[string]handler{
	"notification.show":         (*Session).notificationShow,
	"client.window_title.set":   (*Session).windowTitleSet,
	"client.window_title.clear": (*Session).windowTitleClear,
}

// toastInterval is the least time between two toasts.
const toastInterval = time.Second

// ForegroundClient tells the session which connection is the interactive
// client in front (the screen side sends it when a client attaches); the
// client gets Toast and WindowTitle messages until it goes away.
type ForegroundClient struct{ PID *actor.PID }

func (s *Session) setForegroundClient(ctx actor.Context, pid *actor.PID) {
	s.ag.client = pid
	s.watch(ctx, pid)
}

func (s *Session) notificationShow(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.NotificationShowParams)
	reason := s.toastReason(time.Now())
	if reason != protocol.NotifyShown {
		return api.Done(protocol.NotificationShown{Shown: false, Reason: reason})
	}
	t := &api.Toast{Title: prm.Title, Sound: prm.Sound}
	if prm.Body != nil {
		t.Body = *prm.Body
	}
	if prm.Position != nil {
		t.Position = *prm.Position
	}
	s.ag.toastAt = time.Now()
	ctx.Send(s.ag.client, t)
	return api.Done(protocol.NotificationShown{Shown: true, Reason: protocol.NotifyShown})
}

// toastReason decides whether a toast can be shown now.
func (s *Session) toastReason(now time.Time) string {
	switch {
	case s.cfg.UI.Toast.Delivery == config.ToastOff || s.cfg.UI.Toast.Delivery == "":
		return protocol.NotifyDisabled
	case s.ag.client == nil:
		return protocol.NotifyNoClient
	case !s.ag.toastAt.IsZero() && now.Sub(s.ag.toastAt) < toastInterval:
		return protocol.NotifyRateLimited
	}
	return protocol.NotifyShown
}

func (s *Session) windowTitleSet(ctx actor.Context, call *api.Call) *api.Reply {
	title := call.Params.(*protocol.ClientWindowTitleSetParams).Title
	if s.ag.client == nil {
		return api.Done(protocol.ClientWindowTitle{Changed: false, Reason: protocol.NotifyNoClient})
	}
	changed := s.ag.title != title
	s.ag.title = title
	ctx.Send(s.ag.client, &api.WindowTitle{Title: title})
	return api.Done(protocol.ClientWindowTitle{Changed: changed, Reason: "set"})
}

func (s *Session) windowTitleClear(ctx actor.Context, _ *api.Call) *api.Reply {
	if s.ag.client == nil {
		return api.Done(protocol.ClientWindowTitle{Changed: false, Reason: protocol.NotifyNoClient})
	}
	changed := s.ag.title != ""
	s.ag.title = ""
	ctx.Send(s.ag.client, &api.WindowTitle{})
	return api.Done(protocol.ClientWindowTitle{Changed: changed, Reason: "cleared"})
}
