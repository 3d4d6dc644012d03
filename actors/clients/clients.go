package clients

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Methods are the API methods the clients actor answers.
var Methods = map[string]bool{
	"notification.show":         true,
	"client.window_title.set":   true,
	"client.window_title.clear": true,
}

// toastInterval is the least time between two toasts.
const toastInterval = time.Second

// Foreground tells the actor which connection is the interactive client in
// front; it gets api.Toast and api.WindowTitle messages until it goes away.
type Foreground struct{ PID *actor.PID }

// SetConfig hands over a reloaded configuration.
type SetConfig struct{ Config config.Config }

// Clients is the actor.
type Clients struct {
	cfg     config.Config
	front   *actor.PID
	toastAt time.Time
	title   string
}

// Props returns the props of the clients actor.
func Props(cfg config.Config) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &Clients{cfg: cfg} })
}

// Receive implements actor.Actor.
func (c *Clients) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *Foreground:
		if c.front != nil && !c.front.Equal(msg.PID) {
			ctx.Unwatch(c.front)
		}
		c.front = msg.PID
		ctx.Watch(msg.PID)
	case *actor.Terminated:
		if c.front != nil && c.front.Equal(msg.Who) {
			c.front = nil
		}
	case *SetConfig:
		c.cfg = msg.Config
	case *api.Call:
		ctx.Respond(c.handle(ctx, msg))
	}
}

func (c *Clients) handle(ctx actor.Context, call *api.Call) *api.Reply {
	switch prm := call.Params.(type) {
	case *protocol.NotificationShowParams:
		return c.show(ctx, prm)
	case *protocol.ClientWindowTitleSetParams:
		return c.setTitle(ctx, prm.Title, "set")
	default:
		return c.setTitle(ctx, "", "cleared")
	}
}

func (c *Clients) show(ctx actor.Context, prm *protocol.NotificationShowParams) *api.Reply {
	now := time.Now()
	reason := protocol.NotifyShown
	switch {
	case c.cfg.UI.Toast.Delivery == config.ToastOff || c.cfg.UI.Toast.Delivery == "":
		reason = protocol.NotifyDisabled
	case c.front == nil:
		reason = protocol.NotifyNoClient
	case !c.toastAt.IsZero() && now.Sub(c.toastAt) < toastInterval:
		reason = protocol.NotifyRateLimited
	}
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
	c.toastAt = now
	ctx.Send(c.front, t)
	return api.Done(protocol.NotificationShown{Shown: true, Reason: protocol.NotifyShown})
}

func (c *Clients) setTitle(ctx actor.Context, title, reason string) *api.Reply {
	if c.front == nil {
		return api.Done(protocol.ClientWindowTitle{Changed: false, Reason: protocol.NotifyNoClient})
	}
	changed := c.title != title
	c.title = title
	ctx.Send(c.front, &api.WindowTitle{Title: title})
	return api.Done(protocol.ClientWindowTitle{Changed: changed, Reason: reason})
}
