package clients

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the API methods the clients actor answers.
var Registry = kit.NewRegistry(protocol.OwnerClients, "actors/clients", map[string]func(*Clients, actor.Context, *kit.Call) *kit.Reply{
	"notification.show": func(c *Clients, ctx actor.Context, call *kit.Call) *kit.Reply {
		return c.show(ctx, call.Params.(*protocol.NotificationShowParams))
	},
	"client.window_title.set": func(c *Clients, ctx actor.Context, call *kit.Call) *kit.Reply {
		return c.setTitle(ctx, call.Params.(*protocol.ClientWindowTitleSetParams).Title, "set")
	},
	"client.window_title.clear": func(c *Clients, ctx actor.Context, _ *kit.Call) *kit.Reply {
		return c.setTitle(ctx, "", "cleared")
	},
	"popup.close":     func(c *Clients, ctx actor.Context, _ *kit.Call) *kit.Reply { return c.popupClose(ctx) },
	"popup.send_text": (*Clients).popupSendText,
	"terminal.claim": func(c *Clients, ctx actor.Context, call *kit.Call) *kit.Reply {
		return c.claim(ctx, call.Params.(*protocol.TerminalClaimParams))
	},
	"popup.open":           (*Clients).popupFromCall,  // popup.go
	"pane.edit_scrollback": (*Clients).editScrollback, // session.go
	"screen.subscribe":     (*Clients).screenSubscribe,
	"client.resize":        (*Clients).clientResize, // geometry.go
	"client.ui_state.get":  (*Clients).uiStateGet,   // uistate.go
	"client.ui_state.set":  (*Clients).uiStateSet,
})

// toastInterval is the least time between two toasts.
const toastInterval = time.Second

// toastVisible is how long the interactive client shows an in-app toast
// (tui's toastTime); a notification in that time would replace it, so it
// answers busy instead, as Herdr does while its toast is on screen.
const toastVisible = 4 * time.Second

// Foreground tells the actor which connection is the interactive client in
// front, and the size of its tab area; it gets kit.Toast and
// kit.WindowTitle messages and the popup until it goes away.
type Foreground struct {
	PID        *actor.PID
	Cols, Rows int
}

// SetConfig hands over a reloaded configuration.
type SetConfig struct{ Config config.Config }

// Options configure the clients actor.
type Options struct {
	Config config.Config
	// SocketPath, BinPath and Home are a popup's HERDR_SOCKET_PATH,
	// HERDR_BIN_PATH (its folder first on PATH) and default folder.
	SocketPath, BinPath, Home string
	Log                       *slog.Logger // nil: slog.Default()
	// StartPane starts a popup's terminal (the server's pane.Runtime.Start;
	// nil: no popups).
	StartPane func(pane.Spec) (*actor.Props, func(), error)
	// Reads is the session's read side, which the calls about its panes
	// resolve ids from (session.go); nil answers them internal_error.
	Reads *view.ReadSide
	// UI is the sidebar state restored at start (uistate.go).
	UI model.UIState
}

// Clients is the actor.
type Clients struct {
	opts    Options
	cfg     config.Config
	front   *actor.PID
	behind  []*actor.PID // the clients in front before it, latest last (behind.go)
	toastAt time.Time
	title   string
	// area is the tab area of the client in front (0×0 before one).
	area      [2]int
	geo       geometry // the cell size the client in front reported (geometry.go)
	popup     *popup   // the open popup (popup.go), or nil
	nextPopup uint64
	// startPane starts a popup's program: the runtime's Start, or a fake in tests.
	startPane func(pane.Spec) (*actor.Props, func(), error)
	// owners is the controlling connection of each claimed terminal
	// (terminal.claim), released when that connection goes away.
	owners map[string]*actor.PID
	// session, plugins and keeper are told by Peers (session.go).
	session, plugins, keeper *actor.PID
	// ui is the sidebar state session.json keeps (uistate.go).
	ui model.UIState
}

// Props returns the props of the clients actor. A popup's terminal that
// fails is stopped, never restarted.
func Props(opts Options) *actor.Props {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	stop := actor.NewOneForOneStrategy(0, time.Second, func(any) actor.Directive { return actor.StopDirective })
	return actor.PropsFromProducer(func() actor.Actor {
		return &Clients{opts: opts, cfg: opts.Config, startPane: opts.StartPane, ui: opts.UI.Clone()}
	}, actor.WithSupervisor(stop), kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (c *Clients) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *Foreground:
		c.foreground(ctx, msg)
	case *actor.Terminated:
		if c.popupGone(ctx, msg.Who, "") {
			return
		}
		if c.front != nil && c.front.Equal(msg.Who) {
			c.frontGone(ctx)
		}
		c.dropBehind(msg.Who)
		c.releaseClaims(msg.Who)
	case *pane.Exited:
		c.popupGone(ctx, nil, msg.TerminalID)
	case *pane.GraphicsInfo: // geometry.go
		c.graphicsInfo(ctx, msg)
	case *SetConfig:
		c.cfg = msg.Config
	case *Peers:
		c.session, c.plugins, c.keeper = msg.Session, msg.Plugins, msg.Keeper
	case *ExportUI: // uistate.go
		ctx.Respond(c.ui.Clone())
	case *caughtUp:
		c.caughtUpRun(ctx, msg)
	case *kit.Push:
		if c.front != nil {
			ctx.Send(c.front, msg)
		}
	case *OpenPopup:
		ctx.Respond(c.openPopup(ctx, msg))
	case *PopupOpen:
		ctx.Respond(c.popupOpen(ctx, msg))
	case *kit.Call:
		if reply := c.handle(ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

// foreground takes a new client in front (or the same one resized): the
// popup moves to it and follows its tab area.
func (c *Clients) foreground(ctx actor.Context, msg *Foreground) {
	if msg.Cols > 0 && msg.Rows > 0 {
		c.area = [2]int{msg.Cols, msg.Rows}
	}
	if c.front == nil || !c.front.Equal(msg.PID) {
		if c.front != nil {
			c.hidePopup(ctx, c.front)
			c.putBehind(c.front) // still watched: it comes back to the front when this one goes
		}
		c.dropBehind(msg.PID)
		c.front = msg.PID
		ctx.Watch(msg.PID)
		c.showPopup(ctx, c.front)
	}
	c.resizePopup(ctx)
}

func (c *Clients) handle(ctx actor.Context, call *kit.Call) *kit.Reply {
	h, ok := Registry.Lookup(call.Method)
	if !ok {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", call.Method))
	}
	return h(c, ctx, call)
}

func (c *Clients) show(ctx actor.Context, prm *protocol.NotificationShowParams) *kit.Reply {
	now := time.Now()
	reason := protocol.NotifyShown
	inApp := c.cfg.UI.Toast.Delivery == config.ToastHerdr
	switch {
	case c.cfg.UI.Toast.Delivery == config.ToastOff || c.cfg.UI.Toast.Delivery == "":
		reason = protocol.NotifyDisabled
	case c.front == nil:
		reason = protocol.NotifyNoClient
	case inApp && !c.toastAt.IsZero() && now.Sub(c.toastAt) < toastVisible:
		reason = protocol.NotifyBusy
	case !c.toastAt.IsZero() && now.Sub(c.toastAt) < toastInterval:
		reason = protocol.NotifyRateLimited
	case c.cfg.UI.Toast.Delivery == config.ToastHerdr && !c.toastAt.IsZero() && now.Sub(c.toastAt) < protocol.ToastVisible:
		reason = protocol.NotifyBusy // the in-app toast shown last is still up
	}
	if reason != protocol.NotifyShown {
		return kit.Done(protocol.NotificationShown{Shown: false, Reason: reason})
	}
	t := &kit.Toast{Title: prm.Title, Sound: prm.Sound, Delivery: c.cfg.UI.Toast.Delivery}
	if prm.Body != nil {
		t.Body = *prm.Body
	}
	// Only in-app toasts have a corner: the request's, else the configured one.
	if inApp {
		t.Position = c.cfg.UI.Toast.HerdrPosition
		if prm.Position != nil {
			t.Position = *prm.Position
		}
	}
	c.toastAt = now
	ctx.Send(c.front, t)
	return kit.Done(protocol.NotificationShown{Shown: true, Reason: protocol.NotifyShown})
}

func (c *Clients) setTitle(ctx actor.Context, title, reason string) *kit.Reply {
	if c.front == nil {
		return kit.Done(protocol.ClientWindowTitle{Changed: false, Reason: protocol.NotifyNoClient})
	}
	changed := c.title != title
	c.title = title
	ctx.Send(c.front, &kit.WindowTitle{Title: title})
	return kit.Done(protocol.ClientWindowTitle{Changed: changed, Reason: reason})
}
