package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The label prompt: one line in the tab bar that names a workspace, tab or
// pane (prefix , and the menus' Rename), a tab or workspace just created
// when [ui] prompt_new_tab_name asks, and a new worktree's branch
// (worktreeprompt.go). Enter sends the rename; Esc drops it.

// renameState is the label being edited.
type renameState struct {
	method, id string
	what       string // "workspace", "tab", "pane", "worktree"
	buf        []rune
	fresh      bool // naming what was just created: empty keeps its name
}

// labelPrompt is the prompt as a component: the label being edited, its
// keys, its line, and the calls it makes through host. It takes and gives
// back the keys through mode (the client's key mode).
type labelPrompt struct {
	renameState
	host promptHost
	mode *mode
}

// promptHost is what the prompt needs of the client around it.
type promptHost interface {
	// rpc calls the server; nil while there is no connection.
	rpc() rpcFunc
	// send makes a request whose answer only matters when it fails.
	send(method string, params any)
	// flushInput sends keys typed before the prompt's request first.
	flushInput()
	toast(text string) tea.Cmd
	// unfoldGroup shows a folded worktree group again.
	unfoldGroup(key string)
}

// start edits the label of what (a workspace, tab or pane), from current.
func (p *labelPrompt) start(what, method, id, current string) {
	*p.mode = modeRename
	p.renameState = renameState{what: what, method: method, id: id, buf: []rune(current)}
}

// errNotConnected answers a request made while the client has no
// connection to its server.
var errNotConnected = errors.New("not connected to the server")

// createdMsg is the answer to a tab.create or workspace.create whose new
// tab or workspace is to be named.
type createdMsg struct {
	method string
	tab    protocol.TabCreated
	ws     protocol.WorkspaceCreated
	err    error
}

// createThenName creates a tab or workspace, then asks for its name.
func (p *labelPrompt) createThenName(method string, params any) tea.Cmd {
	p.host.flushInput()
	call := p.host.rpc()
	return func() tea.Msg {
		msg := createdMsg{method: method}
		if call == nil {
			msg.err = errNotConnected
			return msg
		}
		if method == "tab.create" {
			msg.err = call(method, params, &msg.tab)
		} else {
			msg.err = call(method, params, &msg.ws)
		}
		return msg
	}
}

// created names what was just created, unless the person went on to
// something else.
func (p *labelPrompt) created(msg createdMsg) tea.Cmd {
	if msg.err != nil {
		return p.host.toast(msg.method + ": " + msg.err.Error())
	}
	if *p.mode != modeTerminal {
		return nil // the person went on to something else
	}
	if msg.method == "tab.create" {
		p.start("tab", "tab.rename", msg.tab.Tab.TabID, "")
	} else {
		p.start("workspace", "workspace.rename", msg.ws.Workspace.WorkspaceID, "")
	}
	p.fresh = true
	return nil
}

// key edits the label; Enter sends it, Esc drops it.
func (p *labelPrompt) key(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc", "ctrl+c":
		*p.mode = modeTerminal
	case "enter":
		*p.mode = modeTerminal
		return p.submit()
	case "backspace", "ctrl+h":
		if len(p.buf) > 0 {
			p.buf = p.buf[:len(p.buf)-1]
		}
	case "ctrl+u":
		p.buf = p.buf[:0]
	default:
		if text, ok := typedText(k); ok {
			p.buf = append(p.buf, []rune(text)...)
		}
	}
	return nil
}

// submit sends the label to where it goes.
func (p *labelPrompt) submit() tea.Cmd {
	label := string(p.buf)
	if p.fresh && strings.TrimSpace(label) == "" {
		return nil // a new one left unnamed keeps its own name
	}
	switch p.what {
	case "worktree":
		return p.createWorktree(p.id, label)
	case "workspace":
		p.host.send(p.method, protocol.WorkspaceRenameParams{WorkspaceID: p.id, Label: label})
	case "tab":
		p.host.send(p.method, protocol.TabRenameParams{TabID: p.id, Label: label})
	case "pane":
		p.host.send(p.method, protocol.PaneRenameParams{PaneID: p.id, Label: &label})
	}
	return nil
}

// status is the prompt's line in the tab bar.
func (p *labelPrompt) status() string {
	if p.what == "worktree" {
		return " new worktree · branch (blank: generated): " + string(p.buf) + "▏"
	}
	return " rename " + p.what + ": " + string(p.buf) + "▏"
}
