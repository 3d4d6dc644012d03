// Package web owns the built-in web dashboard: a listener actor that serves
// one embedded page (static/, no build step, no CDN) and a WebSocket, and
// one browser actor per WebSocket that speaks to the same session actor as
// the socket gateway's connections, with the same api.Call messages, and
// subscribes to the events bus and to pane screens like a socket client.
// So the dashboard is one model behind two transports.
//
// Security: off unless [web] listen or `herdr web` asks; loopback only
// unless [web] allow_remote; a random token, made when the listener starts
// and written 0600 to the session's state folder, is required on every
// request and on the WebSocket (query, cookie or bearer header); the
// WebSocket's origin must be the page's; browsers may call only a short
// list of methods (none runs a program), and their input is rate-limited.
package web
