package protocol

import "time"

var notificationMethods = []Method{
	{Name: "notification.show", Since: "0.6.9", CLI: "notification show <title> [--body T] [--position top-left|top-right|bottom-left|bottom-right] [--sound none|done|request]", CLIHelp: ` and print the response: shown, or why not
(disabled when [ui.toast] delivery is off, rate_limited, no_foreground_client,
busy). The title is cut to 80 characters, the body to 240.`, Params: func() Params { return &NotificationShowParams{} }, Result: "notification_show", Summary: "Show a toast notification on the attached client", Owner: OwnerClients, Shape: ShapeAnswer},
	{Name: "client.window_title.set", Since: "0.7.0", CLI: "terminal title set", Params: func() Params { return &ClientWindowTitleSetParams{} }, Result: "client_window_title", Summary: "Set the attached client's terminal window title", Owner: OwnerClients, Shape: ShapeAnswer},
	{Name: "client.window_title.clear", Since: "0.7.0", CLI: "terminal title clear", Params: empty, Result: "client_window_title", Summary: "Give the window title back to herdr", Owner: OwnerClients, Shape: ShapeAnswer},
}

// Notification limits.
const (
	MaxNotificationTitle = 80
	MaxNotificationBody  = 240
)

// ToastVisible is how long an in-app toast stays on the client's screen;
// while one does, notification.show answers busy.
const ToastVisible = 4 * time.Second

// Notification reasons.
const (
	NotifyShown       = "shown"
	NotifyDisabled    = "disabled"
	NotifyRateLimited = "rate_limited"
	NotifyNoClient    = "no_foreground_client"
	NotifyBusy        = "busy"
)

// NotificationShowParams are the params of notification.show. Validate
// sanitises Title and Body in place.
type NotificationShowParams struct {
	Title    string  `json:"title" cli:"<title>"`
	Body     *string `json:"body,omitempty" cli:"--body" help:"text under the title"`
	Position *string `json:"position,omitempty" cli:"--position" help:"corner of the screen (herdr delivery)"`
	Sound    string  `json:"sound,omitempty" cli:"--sound" help:"none, done or request"`
}

// Validate implements Params.
func (p *NotificationShowParams) Validate() error {
	p.Title = SanitizeText(p.Title, MaxNotificationTitle)
	if p.Title == "" {
		return ParamError("title", "must not be empty")
	}
	if p.Body != nil {
		b := SanitizeText(*p.Body, MaxNotificationBody)
		p.Body = &b
	}
	if p.Position != nil {
		if err := oneOf("position", *p.Position, "top-left", "top-right", "bottom-left", "bottom-right"); err != nil {
			return err
		}
	}
	if p.Sound != "" {
		return oneOf("sound", p.Sound, "none", "done", "request")
	}
	return nil
}

// ClientWindowTitleSetParams are the params of client.window_title.set.
type ClientWindowTitleSetParams struct {
	Title string `json:"title" cli:"<title>"`
}

// Validate implements Params.
func (p *ClientWindowTitleSetParams) Validate() error {
	p.Title = SanitizeText(p.Title, 256)
	if p.Title == "" {
		return ParamError("title", "must not be empty")
	}
	return nil
}

// NotificationShown answers notification.show.
type NotificationShown struct {
	Shown  bool   `json:"shown"`
	Reason string `json:"reason"`
}

// ClientWindowTitle answers client.window_title.set and clear.
type ClientWindowTitle struct {
	Changed bool   `json:"changed"`
	Reason  string `json:"reason"`
}

func (NotificationShown) ResultType() string { return "notification_show" }
func (ClientWindowTitle) ResultType() string { return "client_window_title" }
