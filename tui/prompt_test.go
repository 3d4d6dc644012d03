package tui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// fakePromptHost is the client as the label prompt sees it: a server that
// creates tabs and worktrees, the requests sent, the toasts, the flushes
// and the groups unfolded.
type fakePromptHost struct {
	sent     []string
	calls    []string
	toasts   []string
	flushes  int
	unfolded []string
}

func (h *fakePromptHost) rpc() rpcFunc {
	return func(method string, params, out any) error {
		h.calls = append(h.calls, method)
		switch res := out.(type) {
		case *protocol.TabCreated:
			res.Tab.TabID = "w1:t9"
		case *protocol.WorktreeCreated:
			if p := params.(protocol.WorktreeCreateParams); p.Branch != nil && *p.Branch == "taken" {
				return errors.New("branch exists")
			}
		}
		return nil
	}
}
func (h *fakePromptHost) send(method string, params any) {
	b, _ := json.Marshal(params)
	h.sent = append(h.sent, method+" "+string(b))
}
func (h *fakePromptHost) flushInput()            { h.flushes++ }
func (h *fakePromptHost) unfoldGroup(key string) { h.unfolded = append(h.unfolded, key) }
func (h *fakePromptHost) toast(text string) tea.Cmd {
	h.toasts = append(h.toasts, text)
	return nil
}

// The label prompt on its own: it edits from the current label and sends
// the rename on Enter; a tab just created is named, and left unnamed when
// Enter comes with nothing typed; Esc sends nothing; a worktree's branch
// goes to worktree.create, whose failure is a toast.
func TestLabelPrompt_OnItsOwn(t *testing.T) {
	h := &fakePromptHost{}
	md := modeTerminal
	p := &labelPrompt{host: h, mode: &md}
	p.start("pane", "pane.rename", "w1:p1", "old")
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyBackspace}, keyRunes("d"), {Code: tea.KeySpace, Text: " "}, keyRunes("x")} {
		p.key(k)
	}
	if md != modeRename || p.status() != " rename pane: old x▏" {
		t.Fatalf("mode %v status %q", md, p.status())
	}
	p.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	if md != modeTerminal || len(h.sent) != 1 || h.sent[0] != `pane.rename {"pane_id":"w1:p1","label":"old x"}` {
		t.Fatalf("enter: mode %v sent %q", md, h.sent)
	}

	p.created(p.createThenName("tab.create", protocol.TabCreateParams{Focus: true})().(createdMsg))
	if h.flushes != 1 || md != modeRename || p.id != "w1:t9" || !p.fresh {
		t.Fatalf("created: flushes %d mode %v prompt %+v", h.flushes, md, p.renameState)
	}
	p.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(h.sent) != 1 {
		t.Fatalf("an unnamed new tab was renamed: %q", h.sent)
	}
	p.start("tab", "tab.rename", "w1:t1", "a")
	p.key(tea.KeyPressMsg{Code: tea.KeyEsc})
	if md != modeTerminal || len(h.sent) != 1 {
		t.Fatalf("esc: mode %v sent %q", md, h.sent)
	}

	p.startWorktree("w1")
	p.key(keyRunes("taken"))
	if !strings.Contains(p.status(), "new worktree · branch") {
		t.Fatalf("status %q", p.status())
	}
	p.worktreeCreated(p.key(tea.KeyPressMsg{Code: tea.KeyEnter})().(worktreeCreatedMsg))
	if len(h.toasts) != 1 || h.toasts[0] != "new worktree: branch exists" || len(h.unfolded) != 0 {
		t.Fatalf("failed worktree: toasts %q unfolded %v", h.toasts, h.unfolded)
	}
	p.worktreeCreated(worktreeCreatedMsg{res: protocol.WorktreeCreated{Workspace: protocol.WorkspaceInfo{Worktree: &protocol.WorkspaceWorktreeInfo{RepoKey: "/repo"}}}})
	if len(h.unfolded) != 1 || h.unfolded[0] != "/repo" {
		t.Fatalf("unfolded %v", h.unfolded)
	}
}

// noConnPromptHost is a client without a connection to its server.
type noConnPromptHost struct{ fakePromptHost }

func (*noConnPromptHost) rpc() rpcFunc { return nil }

// Without a connection, creating a tab or a worktree says so and names
// nothing (no panic in the command).
func TestLabelPrompt_NoConnection(t *testing.T) {
	h := &noConnPromptHost{}
	md := modeTerminal
	p := &labelPrompt{host: h, mode: &md}
	p.created(p.createThenName("tab.create", protocol.TabCreateParams{})().(createdMsg))
	p.worktreeCreated(p.createWorktree("w1", "b")().(worktreeCreatedMsg))
	if md != modeTerminal || len(h.toasts) != 2 || h.toasts[0] != "tab.create: not connected to the server" || h.toasts[1] != "new worktree: not connected to the server" {
		t.Fatalf("mode %v toasts %q", md, h.toasts)
	}
}
