// Package tui is herdr's interactive client: a Bubble Tea program that
// attaches to a server over its socket and draws the session — a sidebar of
// workspaces and agents, a tab bar, and the panes of the focused tab with
// their borders.
//
// The client keeps no model of its own. Structure and status come from
// session.snapshot, refreshed whenever events.subscribe reports a change;
// pane contents come from the screen stream (screen.subscribe), which
// pushes only the rows that changed. Every key binding is an API call, and
// all other keys go to the focused pane as pane.send_text, one write per
// burst with at most one in flight per pane. The three streams use three
// connections: requests, events and screens.
//
// Bubble Tea (v2) reads and decodes the keys and runs the loop; the client
// sets up the outer terminal itself (outer.go), asking it for the kitty
// keyboard protocol's disambiguated keys, and draws it itself (render.go):
// once after each batch of messages, only the cells that changed, with the
// terminal's own cursor at the focused pane's cursor, and nothing at all
// while nothing changes. When only frames came since the last draw (a
// keystroke's echo) and nothing covers the panes, it draws and compares
// only the rows they changed (rowdraw.go), not the whole canvas. Text is split into cells and measured by the
// emulator's rule (emulator.NextCell), so a pane's row takes exactly the
// columns its terminal gave it. Keys go to a pane in the form its program
// asked for (keyenc.go): shift+enter, ctrl+i and esc as CSI u to one that
// pushed the kitty flag, as an xterm's bytes to any other. Bubble Tea's
// split mouse messages become one event at the root (teamsg.go). It
// reads the terminal opened again, through Go's poller (input_linux.go),
// and a client alone in its process keeps to one processor
// (Options.ClientOnly): a key, and a frame, runs from the poller's wake
// to its write on one thread.
//
// The face of it: the sidebar's two sections, their split and the
// sidebar's width, both dragged with the mouse, and the spaces' scroll
// (sections.go), the agent panel, which applies the server's agent view
// and [ui.sidebar.*] rows of tokens (agents.go), git marks per workspace
// (git.go), [theme] palettes (theme.go), notifications and sounds
// (notify.go, sound.go), [[keys.command]] (keycmd.go), the tmux preset,
// the hint for a prefix key bound to nothing and last pane (tmuxkeys.go),
// the session chooser (chooser.go), the command prompt (cmdprompt.go,
// a bubbles text input) — both run herdr as a child (herdrcmd.go) — and
// the layout cycle (layoutcycle.go), right-click menus
// and where right clicks go (menu.go), the session's popup (popup.go),
// config diagnostics shown on attach (diagnostics.go), the settings
// screen, which writes one key of config.toml at a time (settings.go),
// and copy mode, which works on the pane's whole kept history through the
// server's copy methods (pane.scroll, pane.copy_motion, pane.copy_search,
// pane.selection.read: copy.go); a yank also keeps a server paste
// buffer (buffer.set) and prefix ] pastes the newest (buffer.paste:
// buffer.go). Ctrl-click asks pane.link.activate
// (link.go); prefix e asks pane.edit_scrollback (bindings.go). The saved
// machines get sidebar sections of their own, polled from machine.list
// and the fleet snapshot (machines.go); a remote workspace chosen there
// is streamed from the machine's server over Options.DialMachine, with
// its own redial backoff (remote.go). The task board (tasks.go): a dock
// beside or below the panes (prefix t, or "task panel" in the menu a
// sidebar header's right click opens), a full board of status columns
// (prefix B, "task board") and a task's activity, read from task.list and
// task.get again on each task event; hidden on a server without them.
// Closing a workspace's last tab asks y/n first, whatever runs there;
// other closes ask only when a program would end ([ui] confirm_close;
// lasttab.go, nav.go).
//
// The root model is small: it holds the client's config (uiconfig.go:
// config.toml as drawn, the session's sidebar width over it), the session
// (session.go: the snapshot and the agent view, and the questions asked of
// them: what is focused, labels, the panes drawn), the screens, the link
// (which also reconnects and asks for the snapshot and the ui state) and
// the key mode, and routes to components, each a type with its own state,
// keys or mouse, and drawing: the sidebar (sidebar.go, sections.go,
// agents.go, spaceorder.go), the tab bar and the pane view (view.go,
// panemouse.go), copy mode (copyMode), the mouse selection (mouseSelect),
// the clipboard (clipboard: copies out, yanks kept, buffers pasted), the
// label prompt (prompt.go), the right-click menus (menus), navigation
// (navigator), the workspace picker and the close question (nav.go), the
// tmux parts (tmuxParts: the session chooser, the command prompt, the
// layout cycle), the key commands (keyCommands), the popup (popupView),
// the task panel (taskPanel), settings (settingsScreen), notifications and
// sounds (notifier), the git marks (gitMarks), the fleet (fleetView), the
// remote view (remoteView), the review diff (diffView), the inbox
// (inboxView), pane graphics (graphicsState), the input queue
// (inputq.go) and the tab bar's toast (toast.go). A component reaches the
// root only through the small interface it declares (a caller for the
// server, the session, a toast), which host.go implements (the session
// embedded) and a test fakes: each component has a test that drives it
// without a terminal and without a server.
//
// Messages are routed by kind (model.go: update): the components' own
// (the task panel's, the fleet's, the remote view's), the session's
// structure and screens, the link, notices, input. Prefix bindings run
// from a table of actions, each a function of the table (bindings.go). The mouse goes to a gesture in
// progress, else to the component that owns the region under the
// pointer: sidebar, tab bar or pane view (mouse.go). View is empty: the
// client has no Bubble Tea renderer.
//
// When the server goes (reconnect.go), the client exits at once with the
// terminal restored if the server said it was stopping or nothing listens
// on its socket any more, and reconnects by itself after a live handoff.
package tui
