package kit

// Toast asks the foreground client (the interactive client attached last)
// to show a notification; its connection writes it as a client.toast line.
type Toast struct {
	Title    string `json:"title"`
	Body     string `json:"body,omitempty"`
	Position string `json:"position,omitempty"`
	Sound    string `json:"sound,omitempty"`
	// Delivery is the server's [ui.toast] delivery when it sent the toast:
	// the client delivers it so, whatever config it started with, as a
	// server.reload_config may have changed it since.
	Delivery string `json:"delivery,omitempty"`
}

// WindowTitle asks the foreground client to set its terminal window's
// title ("" gives it back); written as a client.window_title line.
type WindowTitle struct {
	Title string `json:"title"`
}

// Push asks the foreground client's connection to write one pushed line,
// {"event":Event,"data":Data}; the clients actor forwards it to the client
// in front (the agents actor uses it to say the agent view changed).
type Push struct {
	Event string
	Data  any
}

// SetArea is a client.resize as the clients actor hands it to the
// session: the tab area of the client in front, which every tab is laid
// out in again, its panes framed from then on. The session answers Call's
// sender once the panes have their new size.
type SetArea struct {
	Call       *Call
	Cols, Rows int
}
