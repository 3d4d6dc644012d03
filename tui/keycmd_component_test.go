package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeKeyCmdHost is the client as the key commands see it: a session, a
// server that answers pane.split, and a log of what was asked.
type fakeKeyCmdHost struct {
	session
	did      []string
	flushed  int
	splitEnv map[string]string
}

func (h *fakeKeyCmdHost) socketPath() string       { return "/run/herdr.sock" }
func (h *fakeKeyCmdHost) context() context.Context { return context.Background() }
func (h *fakeKeyCmdHost) flushInput()              { h.flushed++ }
func (h *fakeKeyCmdHost) send(method string, _ any) {
	h.did = append(h.did, method)
}
func (h *fakeKeyCmdHost) toast(text string) tea.Cmd {
	h.did = append(h.did, "toast "+text)
	return nil
}
func (h *fakeKeyCmdHost) rpc() rpcFunc {
	return func(method string, params, out any) error {
		h.did = append(h.did, method)
		switch p := params.(type) {
		case protocol.PaneSplitParams:
			h.splitEnv = p.Env
			out.(*protocol.PaneInfoResult).Pane.PaneID = "w1:p9"
		case protocol.PaneSendTextParams:
			if p.PaneID != "w1:p9" || p.Text != runKeyCommand {
				return errors.New("typed the wrong line")
			}
		}
		return nil
	}
}

// The key commands on their own (no model, no server): a popup and a
// plugin action are one request each; a pane command splits, zooms and
// types the one fixed line, the command in the new pane's environment
// with where the person is; a failure is said in a toast.
func TestKeyCommands_OnItsOwn(t *testing.T) {
	h := &fakeKeyCmdHost{session: session{snap: twoPanes()}}
	kc := keyCommands{h: h}
	kc.run(config.KeyCommand{Type: "popup", Command: "htop"})
	kc.run(config.KeyCommand{Type: "plugin_action", Command: "x.y"})
	msg := kc.run(config.KeyCommand{Type: "pane", Command: "echo 'hi'; exit"})()
	if got := strings.Join(h.did, ","); got != "popup.open,plugin.action.invoke,pane.split,pane.zoom,pane.send_text" {
		t.Fatalf("did %v", got)
	}
	if h.flushed != 3 {
		t.Errorf("keys typed before a command go first: flushed %d, want 3", h.flushed)
	}
	if h.splitEnv[keyCommandEnv] != "echo 'hi'; exit" || h.splitEnv["HERDR_ACTIVE_PANE_ID"] != "w1:p2" || h.splitEnv["HERDR_SOCKET_PATH"] != "/run/herdr.sock" {
		t.Errorf("the new pane's environment %v", h.splitEnv)
	}
	if kc.finished(msg.(commandDone)) != nil || strings.Contains(strings.Join(h.did, ","), "toast") {
		t.Errorf("a command that went well says nothing: %v", h.did)
	}
	kc.finished(commandDone{command: "make", err: errors.New("exit status 2")})
	if last := h.did[len(h.did)-1]; last != "toast keys.command make: exit status 2" {
		t.Errorf("a failure: %q", last)
	}
}
