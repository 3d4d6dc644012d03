package clients

import (
	"maps"
	"os/exec"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// The popup: one session-modal terminal at most, drawn by the client in
// front over its tab area. It is this actor's child, not a pane of the
// session: it has no pane id, is in no layout, and its exit emits nothing.
// The client in front is told when it opens and closes (a client.popup
// line) and watches its screen; its keys come back as popup.send_text.

// OpenPopup asks the actor to open a popup (a plugin's); the sender is
// the caller, who gets the answer (ok, or ui_busy while one is open).
type OpenPopup struct {
	Call          *kit.Call
	Title         string
	Width, Height *protocol.PopupSize
	Argv          []string
	// Cwd is an absolute folder ("": home); Env goes on top of the
	// server's environment.
	Cwd string
	Env map[string]string
	// Cols and Rows are the tab area before a client is in front.
	Cols, Rows int
	// FailCode answers a program that cannot start (default
	// plugin_pane_open_failed, a plugin's popup).
	FailCode string
}

// CarriedCall implements kit.CallCarrier.
func (o *OpenPopup) CarriedCall() *kit.Call { return o.Call }

// PopupOpen is popup.open ([[keys.command]] type popup) with the focused
// pane's context and the tab area: from the session's read side
// (popupFromCall) or the plugins actor's key command; the sender is the
// caller.
type PopupOpen struct {
	Call       *kit.Call
	Context    protocol.PluginInvocationContext
	Cols, Rows int
}

// CarriedCall implements kit.CallCarrier.
func (o *PopupOpen) CarriedCall() *kit.Call { return o.Call }

// popup is the open popup.
type popup struct {
	pid        *actor.PID
	state      protocol.PopupState
	cols, rows int // its terminal's size
}

// popupFromCall answers popup.open from the gateway with the focused
// pane's context, from the newest View once it shows every message the
// session was sent before the call.
func (c *Clients) popupFromCall(ctx actor.Context, call *kit.Call) *kit.Reply {
	return c.withView(ctx, call, func(c *Clients, ctx actor.Context, v *view.View, call *kit.Call, _ *actor.PID) *kit.Reply {
		m := &PopupOpen{Call: call, Cols: v.Area.W, Rows: v.Area.H}
		_ = v.FillContext(&m.Context) // it names nothing, so nothing is missing
		return c.popupOpen(ctx, m)
	})
}

// popupOpen runs a command line in a popup: the platform shell runs it
// in the focused pane's folder, with the HERDR_ACTIVE_* variables a key
// command sees.
func (c *Clients) popupOpen(ctx actor.Context, m *PopupOpen) *kit.Reply {
	prm := m.Call.Params.(*protocol.PopupOpenParams)
	x := m.Context
	if x.FocusedPaneID == nil || x.WorkspaceID == nil || x.TabID == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNoActivePane, "no active pane"))
	}
	here := ""
	if x.FocusedPaneCwd != nil {
		here = *x.FocusedPaneCwd
	}
	cwd := here
	if prm.Cwd != nil && *prm.Cwd != "" {
		cwd = *prm.Cwd
	}
	env := map[string]string{}
	for k, v := range prm.Env {
		env[k] = v
	}
	for k, v := range map[string]string{"HERDR_ACTIVE_WORKSPACE_ID": *x.WorkspaceID, "HERDR_ACTIVE_TAB_ID": *x.TabID,
		"HERDR_ACTIVE_PANE_ID": *x.FocusedPaneID, "HERDR_ACTIVE_PANE_CWD": here} {
		env[k] = v
	}
	width, height := prm.Sizes()
	return c.openPopup(ctx, &OpenPopup{Call: m.Call, Title: prm.Title, Width: width, Height: height, Argv: shellCommand(prm.Command),
		Cwd: cwd, Env: env, Cols: m.Cols, Rows: m.Rows, FailCode: protocol.CodePopupOpenFailed})
}

// openPopup starts the popup's program at the size its geometry gives. A
// program not found or a bad folder fail before a popup open already
// answers ui_busy.
func (c *Clients) openPopup(ctx actor.Context, m *OpenPopup) *kit.Reply {
	fail := m.FailCode
	if fail == "" {
		fail = protocol.CodePluginPaneOpenFailed
	}
	if _, err := exec.LookPath(m.Argv[0]); err != nil {
		return kit.Fail(protocol.Errorf(fail, "cannot start %s: %v", m.Argv[0], err))
	}
	cwd, err := c.checkCwd(m.Cwd)
	if err != nil {
		return kit.Fail(err)
	}
	if c.popup != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeUIBusy, "a popup is open already; close it first (popup.close)"))
	}
	if c.area == [2]int{} {
		c.area = [2]int{m.Cols, m.Rows}
	}
	_, inner, ok := protocol.PopupGeometry(m.Width, m.Height, c.area[0], c.area[1])
	if !ok {
		return kit.Fail(protocol.Errorf(fail, "terminal area too small for popup"))
	}
	c.nextPopup++
	termID := "term_popup_" + strconv.FormatInt(time.Now().UnixMicro(), 16) + strconv.FormatUint(c.nextPopup, 16)
	props, abort, err := c.startPane(pane.Spec{TerminalID: termID, Argv: m.Argv, Cwd: cwd, Env: c.popupEnv(m.Env), Cols: inner.Width, Rows: inner.Height,
		ScrollbackBytes: c.cfg.Advanced.ScrollbackLimitBytes, Log: c.opts.Log.With("popup", termID)})
	if err != nil {
		return kit.Fail(protocol.Errorf(fail, "cannot start %s: %v", m.Argv[0], err))
	}
	pid, err := ctx.SpawnNamed(props, termID)
	if err != nil {
		abort()
		return kit.Fail(protocol.Errorf(fail, "start popup: %v", err))
	}
	ctx.Watch(pid)
	c.popup = &popup{pid: pid, cols: inner.Width, rows: inner.Height,
		state: protocol.PopupState{Open: true, TerminalID: termID, Title: m.Title, Width: m.Width, Height: m.Height}}
	c.showPopup(ctx, c.front)
	return kit.OK()
}

// showPopup tells client the popup's state and has it watch the screen.
func (c *Clients) showPopup(ctx actor.Context, client *actor.PID) {
	if client == nil || c.popup == nil {
		return
	}
	c.pushPopup(ctx, client, c.popup.state)
	ctx.Send(c.popup.pid, &pane.ScreenWatch{Sub: client, PaneID: c.popup.state.TerminalID, Watch: true})
}

// hidePopup tells client there is no popup (for it) any more.
func (c *Clients) hidePopup(ctx actor.Context, client *actor.PID) {
	if client == nil || c.popup == nil {
		return
	}
	ctx.Send(c.popup.pid, &pane.ScreenWatch{Sub: client, PaneID: c.popup.state.TerminalID, Watch: false})
	c.pushPopup(ctx, client, protocol.PopupState{Open: false, TerminalID: c.popup.state.TerminalID})
}

// pushPopup writes a client.popup line to a client's connection, between
// its answers and frames.
func (c *Clients) pushPopup(ctx actor.Context, client *actor.PID, st protocol.PopupState) {
	if line, err := protocol.EncodeDedicated(protocol.PopupEvent, st); err == nil {
		ctx.Send(client, &kit.Frames{Lines: [][]byte{line}, From: ctx.Self()})
	}
}

// closePopup stops the popup's program and tells the client in front.
func (c *Clients) closePopup(ctx actor.Context) {
	if c.popup == nil {
		return
	}
	c.hidePopup(ctx, c.front)
	ctx.Unwatch(c.popup.pid)
	ctx.Poison(c.popup.pid)
	c.popup = nil
}

// resizePopup follows a new tab area.
func (c *Clients) resizePopup(ctx actor.Context) {
	if c.popup == nil {
		return
	}
	_, inner, ok := protocol.PopupGeometry(c.popup.state.Width, c.popup.state.Height, c.area[0], c.area[1])
	if !ok || (inner.Width == c.popup.cols && inner.Height == c.popup.rows) {
		return
	}
	c.popup.cols, c.popup.rows = inner.Width, inner.Height
	ctx.Send(c.popup.pid, &pane.Resize{Cols: inner.Width, Rows: inner.Height})
}

func (c *Clients) popupClose(ctx actor.Context) *kit.Reply {
	if c.popup == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePopupNotOpen, "no popup is open"))
	}
	c.closePopup(ctx)
	return kit.OK()
}

// popupSendText hands the text to the popup's terminal, which answers.
func (c *Clients) popupSendText(ctx actor.Context, call *kit.Call) *kit.Reply {
	if c.popup == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePopupNotOpen, "no popup is open"))
	}
	id := c.popup.state.TerminalID
	text := call.Params.(*protocol.PopupSendTextParams).Text
	fwd := &kit.Call{ID: call.ID, Method: "pane.send_text", Params: &protocol.PaneSendTextParams{PaneID: id, Text: text}}
	ctx.RequestWithCustomSender(c.popup.pid, &pane.Request{Call: fwd, PaneID: id}, ctx.Sender())
	return nil
}

// popupGone handles the popup's program exiting, or its actor stopping.
func (c *Clients) popupGone(ctx actor.Context, who *actor.PID, termID string) bool {
	if c.popup == nil || (who != nil && !c.popup.pid.Equal(who)) || (termID != "" && termID != c.popup.state.TerminalID) {
		return false
	}
	c.closePopup(ctx)
	return true
}

// checkCwd is a popup's folder: absolute and a directory ("" is home,
// else /), as a pane's.
func (c *Clients) checkCwd(cwd string) (string, error) { return pane.CheckCwd(cwd, c.opts.Home) }

// popupEnv is a popup's environment: the server's, then the caller's,
// then herdr's own terminal variables; no HERDR_PANE_ID (a popup is no
// pane) and, as in Herdr, no workspace or tab id either (a plugin's
// context JSON has them).
func (c *Clients) popupEnv(extra map[string]string) []string {
	extra = maps.Clone(extra) // neither from the caller either
	delete(extra, "CODEX_THREAD_ID")
	delete(extra, "HERDR_PANE_ID")
	return pane.TerminalEnv(extra, []string{"CODEX_THREAD_ID", "HERDR_PANE_ID"}, c.opts.BinPath, map[string]string{"HERDR_SOCKET_PATH": c.opts.SocketPath})
}
