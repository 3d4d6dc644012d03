package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// channel is the release channel this build reports.
const channel = "stable"

type clientStatus struct {
	Version  string `json:"version"`
	Channel  string `json:"channel"`
	Protocol int    `json:"protocol"`
	Binary   string `json:"binary"`
	Session  string `json:"session"`
}

type serverStatus struct {
	Status       string                       `json:"status"` // running | not_running
	Running      bool                         `json:"running"`
	Version      *string                      `json:"version"`
	Protocol     *int                         `json:"protocol"`
	Capabilities *protocol.ServerCapabilities `json:"capabilities"`
	// PID and StartedAt are the server process's (a server before them: null).
	PID           *int    `json:"pid"`
	StartedAt     *string `json:"started_at"`
	Compatible    *bool   `json:"compatible"`
	Socket        string  `json:"socket"`
	Session       string  `json:"session"`
	RestartNeeded *bool   `json:"restart_needed"`
	// The session file: where it is, when it was last saved (null: never),
	// and files that could not be restored and were moved aside.
	SessionFile    string   `json:"session_file"`
	SessionSavedAt *string  `json:"session_saved_at"`
	MovedAside     []string `json:"session_files_moved_aside,omitempty"`
	// LastRestore is the server log's last word on restoring the session.
	LastRestore *string `json:"last_restore,omitempty"`
}

type updateStatus struct {
	RestartNeeded *bool `json:"restart_needed"`
}

type statusReport struct {
	Client *clientStatus `json:"client,omitempty"`
	Server *serverStatus `json:"server,omitempty"`
	Update *updateStatus `json:"update,omitempty"`
}

func (a *app) statusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [server|client]",
		Short: "Show client and server versions and whether the server runs",
		Long: `Show this herdr's version and protocol, whether a server runs at the
session's socket (and its version, protocol and compatibility), and whether
the server needs a restart to match this client. 'status server' and
'status client' print one block. Always exits 0.`,
		Example: `  herdr status
  herdr status server --json`,
		ValidArgs: []string{"server", "client"},
		Args:      cobra.MatchAll(cobra.MaximumNArgs(1), cobra.OnlyValidArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			part := ""
			if len(args) == 1 {
				part = args[0]
			}
			return exit(a.status(part, asJSON))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func (a *app) status(part string, asJSON bool) int {
	sock, err := a.socket()
	if err != nil {
		return a.fail("cli:status", err)
	}
	session := a.sessionName()
	if session == "" {
		session = protocol.DefaultSession
	}
	binary, _ := os.Executable()
	client := &clientStatus{Version: protocol.Version, Channel: channel, Protocol: protocol.ProtocolVersion, Binary: binary, Session: session}
	srv := a.probe(sock)
	srv.Session = session
	srv.SessionFile = a.sessionFile(sock)
	if fi, err := os.Stat(srv.SessionFile); err == nil {
		srv.SessionSavedAt = protocol.Ptr(fi.ModTime().UTC().Format(time.RFC3339))
	}
	srv.MovedAside, _ = filepath.Glob(srv.SessionFile + ".bad-*")
	srv.LastRestore = lastRestore(a.serverLog(sock))
	update := &updateStatus{RestartNeeded: srv.RestartNeeded}

	rep := statusReport{Client: client, Server: srv, Update: update}
	switch part {
	case "client":
		rep = statusReport{Client: client}
	case "server":
		rep = statusReport{Server: srv}
	}
	if asJSON {
		out, _ := json.Marshal(rep)
		fmt.Fprintf(a.stdout, "%s\n", out)
		return 0
	}
	w := a.stdout
	sep := ""
	if rep.Client != nil {
		fmt.Fprintf(w, "client:\n  version: %s\n  channel: %s\n  protocol: %d\n", client.Version, client.Channel, client.Protocol)
		if part == "client" {
			fmt.Fprintf(w, "  binary: %s\n", client.Binary)
		}
		sep = "\n"
	}
	if rep.Server != nil {
		fmt.Fprint(w, sep)
		writeServer(w, srv)
		sep = "\n"
	}
	if rep.Update != nil {
		fmt.Fprintf(w, "%supdate:\n  restart_needed: %s\n", sep, yesNo(update.RestartNeeded))
	}
	return 0
}

func writeServer(w io.Writer, s *serverStatus) {
	defer writeSessionFile(w, s)
	if !s.Running {
		fmt.Fprintf(w, "server:\n  status: not running\n  socket: %s\n", s.Socket)
		return
	}
	version, proto := "unknown", "unknown"
	if s.Version != nil {
		version = *s.Version
	}
	if s.Protocol != nil {
		proto = fmt.Sprint(*s.Protocol)
	}
	fmt.Fprintf(w, "server:\n  status: running\n  version: %s\n  protocol: %s\n  compatible: %s\n  socket: %s\n",
		version, proto, yesNo(s.Compatible), s.Socket)
	pid, uptime := "unknown", "unknown"
	if s.PID != nil {
		pid = fmt.Sprint(*s.PID)
	}
	if s.StartedAt != nil {
		if at, err := time.Parse(time.RFC3339, *s.StartedAt); err == nil {
			uptime = fmt.Sprintf("%s (since %s)", time.Since(at).Round(time.Second), *s.StartedAt)
		}
	}
	fmt.Fprintf(w, "  pid: %s\n  uptime: %s\n", pid, uptime)
}

// restoreLines are the log messages that report a restore's outcome.
var restoreLines = []string{`msg="session restored"`, `msg="session not restored"`, `msg="session file not restored"`}

// lastRestore finds the last restore outcome in the server log (its last
// 64 KiB), as "<time> <message and fields>".
func lastRestore(logPath string) *string {
	f, err := protocol.OpenRegularFile(logPath) // a FIFO there must not hang status
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > 64<<10 {
		_, _ = f.Seek(fi.Size()-64<<10, io.SeekStart)
	}
	data, _ := io.ReadAll(f)
	var found string
	for _, line := range strings.Split(string(data), "\n") {
		for _, m := range restoreLines {
			if strings.Contains(line, m) {
				found = line
			}
		}
	}
	if found == "" {
		return nil
	}
	found = strings.TrimPrefix(found, "time=")
	found = strings.Replace(found, " level=INFO msg=", " ", 1)
	found = strings.Replace(found, " level=ERROR msg=", " ", 1)
	return &found
}

// writeSessionFile tells where the session is kept and how fresh it is.
func writeSessionFile(w io.Writer, s *serverStatus) {
	saved := "never"
	if s.SessionSavedAt != nil {
		saved = *s.SessionSavedAt
		if at, err := time.Parse(time.RFC3339, saved); err == nil {
			saved += fmt.Sprintf(" (%s ago)", time.Since(at).Round(time.Second))
		}
	}
	fmt.Fprintf(w, "  session file: %s\n  session saved: %s\n", s.SessionFile, saved)
	if s.LastRestore != nil {
		fmt.Fprintf(w, "  last restore: %s\n", *s.LastRestore)
	}
	for _, f := range s.MovedAside {
		fmt.Fprintf(w, "  session file moved aside (not restorable): %s\n", f)
	}
}

func yesNo(b *bool) string {
	switch {
	case b == nil:
		return "unknown"
	case *b:
		return "yes"
	default:
		return "no"
	}
}

// probe pings the server at sock. A server that accepts the connection but
// does not answer ping runs with unknown version and compatibility.
func (a *app) probe(sock string) *serverStatus {
	s := &serverStatus{Status: "not_running", Socket: sock, RestartNeeded: protocol.Ptr(false)}
	c, err := protocol.Connect(sock)
	if err != nil {
		return s
	}
	defer c.Close()
	s.Status, s.Running, s.RestartNeeded = "running", true, nil
	_ = c.Conn().SetDeadline(time.Now().Add(2 * time.Second))
	_, resp, err := roundTrip(c, "cli:status", "ping", nil)
	if err != nil || resp.Error != nil {
		return s
	}
	var pong protocol.Pong
	if protocol.Unmarshal(resp.Result, &pong) != nil {
		return s
	}
	s.Version, s.Protocol, s.Capabilities = &pong.Version, &pong.Protocol, pong.Capabilities
	if pong.PID > 0 {
		s.PID = &pong.PID
	}
	if pong.StartedAt != "" {
		s.StartedAt = &pong.StartedAt
	}
	s.Compatible = protocol.Ptr(pong.Protocol == protocol.ProtocolVersion)
	// The Herdr version is the wire's, the same across our builds: the
	// build tells a server older than this client (a server before the
	// field: only the version).
	s.RestartNeeded = protocol.Ptr(pong.Version != protocol.Version || pong.Build != "" && pong.Build != protocol.Build())
	return s
}
