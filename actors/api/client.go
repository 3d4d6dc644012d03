package api

// Toast asks the foreground client (the interactive client attached last)
// to show a notification; its connection writes it as a client.toast line.
type Toast struct {
	Title    string `json:"title"`
	Body     string `json:"body,omitempty"`
	Position string `json:"position,omitempty"`
	Sound    string `json:"sound,omitempty"`
}

// WindowTitle asks the foreground client to set its terminal window's
// title ("" gives it back); written as a client.window_title line.
type WindowTitle struct {
	Title string `json:"title"`
}
