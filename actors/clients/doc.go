// Package clients holds the clients actor: which interactive client is in
// front (the one that sized the tab area last), and what only that person
// sees — notification toasts, rate-limited, and the window title set
// through the API. The gateway sends it the notification.* and
// client.window_title.* calls; the session tells it which connection is in
// front. It owns no topology and never asks the session anything.
package clients
