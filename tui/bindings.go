package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// bindingFunc runs one prefix binding: k is the key that chose it and
// pane the focused pane ("" when none).
type bindingFunc func(m *model, b binding, k tea.KeyPressMsg, pane string) tea.Cmd

// bindingFuncs is what each action does; each is one API call or a mode.
// Filled in init: some of them reach runBinding again (menus, the command prompt).
var bindingFuncs map[action]bindingFunc

func init() {
	bindingFuncs = map[action]bindingFunc{
		actSendPrefix: func(m *model, _ binding, k tea.KeyPressMsg, pane string) tea.Cmd {
			var modes protocol.ScreenModes
			if s := m.screens[pane]; s != nil {
				modes = s.modes
			}
			if enc, ok := keyBytes(k, modes); ok && pane != "" {
				m.input.add(pane, enc)
			}
			return nil
		},
		actDetach: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
			m.detached = true
			return tea.Quit
		},
		actHelp:            setMode(modeHelp),
		actGoto:            setMode(modeNavigate),
		actResizeMode:      setMode(modeResize),
		actSettings:        func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { m.settings.open(); return nil },
		actSplitVertical:   doSplit,
		actSplitHorizontal: doSplit,
		actFocusLeft:       doFocusDirection,
		actFocusDown:       doFocusDirection,
		actFocusUp:         doFocusDirection,
		actFocusRight:      doFocusDirection,
		actSwapLeft:        doSwap,
		actSwapDown:        doSwap,
		actSwapUp:          doSwap,
		actSwapRight:       doSwap,
		actCycleNext:       doCycle,
		actCyclePrev:       doCycle,
		actZoom: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
			m.call("pane.zoom", protocol.PaneZoomParams{Mode: "toggle"})
			return nil
		},
		actClosePane: func(m *model, _ binding, _ tea.KeyPressMsg, pane string) tea.Cmd {
			if pane == "" {
				return nil
			}
			return m.confirm.ask(closeReq{what: "pane", method: "pane.close", params: protocol.PaneTarget{PaneID: pane}}, []string{pane})
		},
		actNewTab:    doNewTab,
		actNextTab:   doStepTab,
		actPrevTab:   doStepTab,
		actSwitchTab: doStepTab,
		actCloseTab: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
			if m.snap.FocusedTabID == nil {
				return nil
			}
			return m.confirm.askTab(*m.snap.FocusedTabID)
		},
		actPaneInfo: func(m *model, _ binding, _ tea.KeyPressMsg, pane string) tea.Cmd {
			if pane == "" {
				return nil
			}
			return m.toast.show(m.paneInfoText(pane))
		},
		actNewWorktree: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
			// A new branch and checkout of the focused workspace's
			// repository, opened as a workspace in its group, once its
			// branch is named.
			if m.snap.FocusedWorkspaceID != nil {
				m.rename.startWorktree(*m.snap.FocusedWorkspaceID)
			}
			return nil
		},
		actNewWorkspace: doNewWorkspace,
		actCloseWorkspace: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
			if m.snap.FocusedWorkspaceID == nil {
				return nil
			}
			id := *m.snap.FocusedWorkspaceID
			return m.confirm.ask(closeReq{what: "workspace", method: "workspace.close", params: protocol.WorkspaceTarget{WorkspaceID: id}}, m.panesOf("", id))
		},
		actPicker:        func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { m.picker.open(); return nil },
		actAttention:     func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.nav.openAttention() },
		actPrevWorkspace: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { m.nav.stepWorkspace(-1); return nil },
		actNextWorkspace: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { m.nav.stepWorkspace(1); return nil },
		actCopyMode: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
			return m.copy.enterCopy(m.focusedPaneID())
		},
		actEditScrollback:  doEditScrollback,
		actRenameWorkspace: doRename,
		actRenameTab:       doRename,
		actRenamePane:      doRename,
		actToggleSidebar: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
			m.sidebar = !m.sidebar
			m.claimSize(true)
			return nil
		},
		actReloadConfig: func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.reloadConfig() },
		actNextAgent:    func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { m.nav.stepAgent(true); return nil },
		actPrevAgent:    func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { m.nav.stepAgent(false); return nil },
		actNextBlocked:  func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.nav.stepBlocked() },
		actReviewDiff:   func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.openReview() },
		actInbox:        func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.openInbox() },
		actTaskPanel:    func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.tasks.cycleDock() },
		actTaskBoard:    func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.tasks.openBoard() },
		actPasteBuffer:  func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd { return m.clip.paste() }, // buffer.go
	}
}

// setMode is a binding that only changes what keys do.
func setMode(md mode) bindingFunc {
	return func(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
		m.mode = md
		return nil
	}
}

// actionDir is the direction an action's name ends with ("left").
func actionDir(a action) string {
	s := string(a)
	return s[strings.LastIndexByte(s, '_')+1:]
}

// runBinding runs a prefix binding: the functions of this file are the
// bindings over the client, one table entry each (bindingFuncs).
func runBinding(m *model, b binding, k tea.KeyPressMsg) tea.Cmd {
	if cmd, done := remoteBinding(m, b, k); done {
		return cmd // a machine's workspace is shown (remote.go)
	}
	if cmd, done := tmuxAction(m, b); done {
		return cmd // tmuxkeys.go
	}
	m.claimSize(false)
	if f := bindingFuncs[b.act]; f != nil {
		return f(m, b, k, m.focusedPaneID())
	}
	return nil
}

func doSplit(m *model, b binding, _ tea.KeyPressMsg, pane string) tea.Cmd {
	d := "right"
	if b.act == actSplitHorizontal {
		d = "down"
	}
	p := protocol.PaneSplitParams{Direction: d, Focus: true}
	if pane != "" {
		p.TargetPaneID = &pane
	}
	m.call("pane.split", p)
	return nil
}

func doFocusDirection(m *model, b binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
	m.call("pane.focus_direction", protocol.PaneDirectionParams{Direction: actionDir(b.act)})
	return nil
}

func doSwap(m *model, b binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
	d := actionDir(b.act)
	m.call("pane.swap", protocol.PaneSwapParams{Direction: &d})
	return nil
}

// doCycle focuses the next or the previous pane of the tab, in order.
func doCycle(m *model, b binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
	l, ok := m.focusedLayout()
	if !ok || len(l.Panes) < 2 {
		return nil
	}
	i := 0
	for j, p := range l.Panes {
		if p.PaneID == l.FocusedPaneID {
			i = j
		}
	}
	step := 1
	if b.act == actCyclePrev {
		step = len(l.Panes) - 1
	}
	m.call("pane.focus", protocol.PaneTarget{PaneID: l.Panes[(i+step)%len(l.Panes)].PaneID})
	return nil
}

func doNewTab(m *model, _ binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
	p := protocol.TabCreateParams{Focus: true, WorkspaceID: m.snap.FocusedWorkspaceID}
	if !m.ui.PromptNewTabName {
		m.call("tab.create", p)
		return nil
	}
	// [ui] prompt_new_tab_name: name it once it exists.
	return m.rename.createThenName("tab.create", p)
}

// doStepTab focuses the next, the previous or the numbered tab.
func doStepTab(m *model, b binding, _ tea.KeyPressMsg, _ string) tea.Cmd {
	tabs := m.focusedTabs()
	if len(tabs) == 0 {
		return nil
	}
	cur := 0
	for i, t := range tabs {
		if t.Focused {
			cur = i
		}
	}
	next := cur
	switch {
	case b.act == actNextTab:
		next = (cur + 1) % len(tabs)
	case b.act == actPrevTab:
		next = (cur + len(tabs) - 1) % len(tabs)
	case b.index >= 1 && b.index <= len(tabs):
		next = b.index - 1
	}
	m.call("tab.focus", protocol.TabTarget{TabID: tabs[next].TabID})
	return nil
}

// doNewWorkspace opens a workspace where the focused pane's program is.
func doNewWorkspace(m *model, _ binding, _ tea.KeyPressMsg, pane string) tea.Cmd {
	p := protocol.WorkspaceCreateParams{Focus: true}
	if info, ok := m.paneInfo(pane); ok {
		if info.ForegroundCwd != nil {
			p.Cwd = info.ForegroundCwd
		} else {
			p.Cwd = info.Cwd
		}
	}
	if !m.ui.PromptNewWorkspaceName {
		m.call("workspace.create", p)
		return nil
	}
	return m.rename.createThenName("workspace.create", p)
}

// doRename starts editing the focused workspace's, tab's or pane's label.
func doRename(m *model, b binding, _ tea.KeyPressMsg, pane string) tea.Cmd {
	switch b.act {
	case actRenameWorkspace:
		if id := m.snap.FocusedWorkspaceID; id != nil {
			m.rename.start("workspace", "workspace.rename", *id, m.workspaceLabel(*id))
		}
	case actRenameTab:
		if id := m.snap.FocusedTabID; id != nil {
			m.rename.start("tab", "tab.rename", *id, m.tabLabel(*id))
		}
	case actRenamePane:
		if info, ok := m.paneInfo(pane); ok {
			label := ""
			if info.Label != nil {
				label = *info.Label
			}
			m.rename.start("pane", "pane.rename", pane, label)
		}
	}
	return nil
}

// remoteBinding takes the prefix bindings while a machine's workspace is
// shown. Those that act on the focused pane, tab or workspace would act
// on the local session's, which is not on the screen: they are refused
// with a toast rather than changing what the person cannot see. The
// prefix itself goes to the remote pane; the bindings that go to a local
// agent's pane show the local session again. done: handled here.
func remoteBinding(m *model, b binding, k tea.KeyPressMsg) (cmd tea.Cmd, done bool) {
	if m.fleet.selected == "" {
		return nil, false
	}
	switch b.act {
	case actSendPrefix:
		return m.remote.input(k), true
	case actNextAgent, actPrevAgent, actAttention, actNextBlocked:
		m.fleet.selected = ""
		return nil, false
	case actHelp, actSettings, actDetach, actNewWorkspace, actToggleSidebar, actPicker, actGoto,
		actPrevWorkspace, actNextWorkspace, actReloadConfig, actChooseSession, actCommandPrompt:
		return nil, false // not about the pane shown
	}
	label := "this machine"
	if fm := m.fleet.remoteWorkspace(m.fleet.selected); fm != nil {
		label = fm.Label
	}
	return m.toast.show(string(b.act) + " works on local workspaces; " + label + "'s panes take keys and the prefix only"), true
}

// doEditScrollback (prefix e) asks the server for pane.edit_scrollback on
// the focused pane: it opens the pane's whole scrollback in $VISUAL or
// $EDITOR in a zoomed pane of its own, which closes when the editor ends
// (cli/edit_scrollback.go runs in it).
func doEditScrollback(m *model, _ binding, _ tea.KeyPressMsg, pane string) tea.Cmd {
	if pane != "" {
		m.call("pane.edit_scrollback", protocol.PaneTarget{PaneID: pane})
	}
	return nil
}
