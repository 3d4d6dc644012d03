// Package web owns the built-in web dashboard: a listener actor that serves
// one embedded page (static/, no build step, no CDN) and a WebSocket, and
// one browser actor per WebSocket that speaks to the same session actor as
// the socket gateway's connections, with the same kit.Call messages, and
// subscribes to the events bus and to pane screens like a socket client.
// So the dashboard is one model behind two transports.
//
// The page's fleet view (static/fleet.js) is drawn from machine.list and
// agent.list {"machines":"all"}; a remote pane, which streams no screen
// here, is read with pane.read by its machine-qualified id. A method the
// server does not know is answered unknown_method, not refused, so the
// page hides that view on an older server. The task board
// (static/tasks.js) is drawn from task.list, a task's activity from
// task.get, read again on task events; it too is hidden without task.list.
// A server in a fleet adds the fleet's board (task.list with fleet) to the
// same columns, each task with the member running it, polled while open.
// The diff view (static/review.js, review.css) is drawn from worktree.diff
// and review.list, its calls (review.*) sent to the review actor
// (Options.Review).
// A pane with no agent is badged with its foreground program (bash, vim)
// from pane.process_info, asked again every few seconds since a program
// starts without an event; only an agent's pane shows a status.
// The inbox (static/inbox.js) is drawn from inbox.list and answered with
// inbox.answer (agent.queue.* and inbox.* go to the loop actor), laid out
// for a phone; the tree badges each agent's queue_length.
//
// A live handoff carries a running dashboard: Export gives its address,
// token and listener; the new server's actor serves that listener from
// its start (Options.Adopt), so open pages reconnect to the same URL.
//
// Security: off unless [web] listen or `herdr web` asks; loopback only
// unless [web] allow_remote; a random token, made when the listener starts
// and written 0600 to the session's state folder, is required on the
// WebSocket (query, bearer header, or the subprotocol list the page
// sends it in); the page keeps it in its tab's sessionStorage, never in a
// cookie, since browsers send cookies to every port of a host. The page's
// cookie, named for the port, holds a key derived from the token that
// serves the page's own files only. The WebSocket's origin must be the
// page's; browsers may call only a short list of methods (none runs a
// program), and their input is rate-limited.
//
// Anyone on the machine can connect, so connections are budgeted
// (limit.go): a few unauthenticated ones at once, the newest pushing the
// oldest out, each closed after its answer and held at most the header
// timeout; more for connections that showed a credential. Requests carry
// no body and small headers; a WebSocket message is at most 8 MB and a
// large one holds the page's whole read window. A replay's screen is at
// most 1000×500, and its emulator goes once the replay has ended.
//
// `herdr web --policy NAME` (web.start's policy) mints a token carrying a
// [[policy]]: a page opened with it has every call checked against it and
// logged to the audit log (policy.go); such tokens live in memory only.
package web
