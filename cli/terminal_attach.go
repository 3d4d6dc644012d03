package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// prefixKey is ctrl+b: then q detaches, ctrl+b sends one ctrl+b.
const prefixKey = 0x02

func (a *app) terminalAttachCmd() *cobra.Command {
	var takeover bool
	cmd := &cobra.Command{
		Use:   "attach <terminal_id> [--takeover]",
		Short: "Attach this terminal to one herdr terminal (ctrl+b q detaches; ctrl+b ctrl+b sends ctrl+b)",
		Long: `Attach this terminal to one herdr terminal: its screen fills this one and
keys go to it. ctrl+b q detaches; ctrl+b ctrl+b sends a literal ctrl+b. A
terminal has one controller; --takeover replaces the current one.

` + terminalTargetHelp,
		Args: exactArgs("<terminal_id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.attachTerminal("cli:terminal:attach", args[0], takeover))
		},
	}
	cmd.Flags().BoolVar(&takeover, "takeover", false, "replace the terminal's current controller")
	return cmd
}

// agentAttachCmd is `agent attach`: agent.get, then a direct attach to
// the agent's terminal.
func (a *app) agentAttachCmd() *cobra.Command {
	var takeover bool
	cmd := &cobra.Command{
		Use:   "attach <target> [--takeover]",
		Short: "Attach this terminal to an agent's terminal (ctrl+b q detaches)",
		Long:  "Attach this terminal to an agent's terminal (ctrl+b q detaches).\n\n" + targetHelp,
		Args:  exactArgs("<target>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			const id = "cli:agent:attach"
			if code := a.needTTY(); code != 0 {
				return exit(code)
			}
			c, _, code := a.connect(id)
			if c == nil {
				return exit(code)
			}
			resp, err := c.Do(id, "agent.get", protocol.AgentTarget{Target: args[0]})
			c.Close()
			if err != nil {
				return exit(a.fail(id, err))
			}
			if resp.Error != nil {
				return exit(a.fail(id, &protocol.Error{Code: resp.Error.Code, Message: resp.Error.Message}))
			}
			var got protocol.AgentInfoResult
			if err := protocol.Unmarshal(resp.Result, &got); err != nil {
				return exit(a.fail(id, err))
			}
			return exit(a.attachTerminal(id, got.Agent.TerminalID, takeover))
		},
	}
	cmd.Flags().BoolVar(&takeover, "takeover", false, "replace the terminal's current controller")
	return cmd
}

// needTTY refuses to attach without a terminal on stdin and stdout.
func (a *app) needTTY() int {
	in, inOK := a.stdin.(*os.File)
	out, outOK := a.stdout.(*os.File)
	if !inOK || !outOK || !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) {
		fmt.Fprintln(a.stderr, "herdr: attach needs a terminal on stdin and stdout; use `herdr terminal session control` from scripts")
		return 1
	}
	return 0
}

// attachTerminal draws the terminal's frames straight onto this terminal
// (raw mode, alternate screen) and sends it the keys typed.
func (a *app) attachTerminal(id, target string, takeover bool) int {
	if code := a.needTTY(); code != 0 {
		return code
	}
	in, out := a.stdin.(*os.File), a.stdout.(*os.File)
	cols, rows, err := term.GetSize(out.Fd())
	if err != nil || cols < 1 || rows < 1 {
		cols, rows = protocol.TerminalDefaultCols, protocol.TerminalDefaultRows
	}
	state, err := term.MakeRaw(in.Fd())
	if err != nil {
		fmt.Fprintf(a.stderr, "herdr: set up the terminal: %v\n", err)
		return 1
	}
	io.WriteString(out, "\x1b[?1049h")
	restore := func() {
		io.WriteString(out, "\x1b[0m\x1b[?25h\x1b[?1049l")
		_ = term.Restore(in.Fd(), state)
	}
	s := &termStream{a: a, id: id, target: target, action: "attach", control: true, takeover: takeover, cv: newCanvas(cols, rows)}
	s.emit = func(_ uint64, _ *canvas, _ bool, b []byte) { out.Write(b) }
	s.closed = func(reason string) {
		restore()
		fmt.Fprintf(a.stderr, "[%s]\n", reason)
	}
	code := s.run(func(s *termStream, c *protocol.Client) { s.keys(in, c) })
	s.finish("detached") // a failure before the stream still restores the terminal
	return code
}

// keys forwards typed bytes, handling the prefix: ctrl+b q detaches,
// ctrl+b ctrl+b sends one ctrl+b, ctrl+b and any other key sends both.
func (s *termStream) keys(r io.Reader, c *protocol.Client) {
	buf := make([]byte, 4096)
	prefix := false
	for {
		n, err := r.Read(buf)
		var send []byte
		for _, b := range buf[:n] {
			switch {
			case prefix && b == 'q':
				if len(send) > 0 {
					_ = c.Call("pane.send_text", protocol.PaneSendTextParams{PaneID: s.pane(), Text: string(send)}, nil)
				}
				s.end("detached")
				return
			case prefix && b == prefixKey:
				send, prefix = append(send, prefixKey), false
			case prefix:
				send, prefix = append(send, prefixKey, b), false
			case b == prefixKey:
				prefix = true
			default:
				send = append(send, b)
			}
		}
		if len(send) > 0 {
			if c.Call("pane.send_text", protocol.PaneSendTextParams{PaneID: s.pane(), Text: string(send)}, nil) != nil {
				s.end("server is shutting down")
				return
			}
		}
		if err != nil {
			s.end("detached")
			return
		}
	}
}
