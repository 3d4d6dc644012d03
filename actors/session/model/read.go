package model

import (
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// Read access to the topology's fields, which only a Tx writes (tx.go).

func (w *Workspace) ID() string                                { return w.id }
func (w *Workspace) Label() string                             { return w.label }
func (w *Workspace) Auto() string                              { return w.auto }
func (w *Workspace) Cwd() string                               { return w.cwd }
func (w *Workspace) Tabs() []*Tab                              { return w.tabs }
func (w *Workspace) Active() *Tab                              { return w.active }
func (w *Workspace) Tokens() map[string]string                 { return w.tokens }
func (w *Workspace) Worktree() *protocol.WorkspaceWorktreeInfo { return w.worktree }
func (t *Tab) ID() string                                      { return t.id }
func (t *Tab) WS() *Workspace                                  { return t.ws }
func (t *Tab) Label() string                                   { return t.label }
func (t *Tab) Root() *layout.Node                              { return t.root }
func (t *Tab) Focused() string                                 { return t.focused }
func (t *Tab) Zoomed() bool                                    { return t.zoomed }
func (p *Pane) ID() string                                     { return p.id }
func (p *Pane) TermID() string                                 { return p.termID }
func (p *Pane) WS() *Workspace                                 { return p.ws }
func (p *Pane) Tab() *Tab                                      { return p.tab }
func (p *Pane) Label() string                                  { return p.label }
func (p *Pane) Cwd() string                                    { return p.cwd }
func (p *Pane) LiveCwd() string                                { return p.liveCwd }
func (p *Pane) Command() []string                              { return p.command }
func (p *Pane) Aliases() []string                              { return p.aliases }
func (p *Pane) RightClick() string                             { return p.rightClick }
func (p *Pane) Raw() uint64                                    { return p.raw }
func (p *Pane) RestoreError() string                           { return p.restoreError }
func (m *Model) Workspaces() []*Workspace                      { return m.workspaces }
func (m *Model) Focused() *Workspace                           { return m.focused }
func (m *Model) Area() layout.Rect                             { return m.area }

// NewPane is a pane for terminal termID in tab t of w, with the id
// NextPaneID gives; AddPane registers it once its terminal has started.
func (m *Model) NewPane(w *Workspace, t *Tab, termID, cwd, label string, command []string) *Pane {
	return &Pane{id: m.NextPaneID(w), termID: termID, ws: w, tab: t, cwd: cwd, label: label, command: command}
}
