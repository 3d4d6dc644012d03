// Package clients holds the clients actor: which interactive client is in
// front (the one that sized the tab area last; when it goes, the one in front
// before it comes back and is asked for its size), and what only that person
// sees — notification toasts, rate-limited, the window title set through
// the API, and the session's popup: one modal terminal at most, the
// actor's own child, drawn by the client in front over its tab area and
// closed by popup.close or when its program exits. The gateway sends it
// the notification.*, client.window_title.*, popup.close and
// popup.send_text calls, client.ui_state.* (the sidebar state session.json
// keeps, which it hands the keeper on every change: uistate.go), and
// client.resize, which makes the caller the
// client in front and keeps its frame geometry (cell size, local kitty;
// geometry.go) and hands the session the tab area (kit.SetArea, a
// topology write the session answers the caller with); the panes send it
// their pane.graphics.info answers to complete with that geometry and
// the pane's visibility (pane.GraphicsInfo). The gateway sends it
// popup.open, whose focused pane's context comes from the session's read
// side, and the plugins actor sends it plugin popups. It checks a popup's program and
// folder and makes its environment (popup.go). It owns no topology: the
// calls about the session's panes it answers (screen.subscribe,
// pane.edit_scrollback: session.go) resolve their ids from the session's published read side
// (Options.Reads) and ask the session only for the pane they open
// (kit.OpenPane), which the session answers the caller with.
package clients
