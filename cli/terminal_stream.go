package cli

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/herdr-go/herdr/protocol"
)

// termStream is one `terminal session observe|control` or `terminal
// attach`: a screen.subscribe connection whose frames become terminal
// frames, an events connection that says when the terminal ends, and (for
// control) a connection that carries the input.
type termStream struct {
	a        *app
	id       string // request id of the command, for error lines
	sock     string
	target   string
	action   string // "observe", "control" or "attach": the wording of failures
	control  bool
	takeover bool

	mu     sync.Mutex // guards what follows: frames, events and input run apart
	paneID string     // the terminal's public pane id, followed across moves
	termID string
	cv     *canvas
	seq    uint64
	// modes and size are the pane's as its last frame said: what
	// terminal.mouse encodes for, and where its cells end.
	modes      protocol.ScreenModes
	cols, rows int
	// emit writes one frame's bytes (a terminal.frame line, or raw bytes
	// for attach); closed writes the end of the stream once.
	emit   func(seq uint64, cv *canvas, full bool, b []byte)
	closed func(reason string)
	ended  bool
	done   chan string // the reason the stream ended
}

// errTargetNotFound is a target that names no terminal.
var errTargetNotFound = errors.New("not found")

// resolve finds the terminal a target names, as Herdr does: a terminal id,
// then a public pane id (any form pane.get takes), then an agent's name or
// its agent label when one pane alone matches.
func (s *termStream) resolve(c *protocol.Client) error {
	var panes protocol.PaneList
	if err := c.Call("pane.list", nil, &panes); err != nil {
		return err
	}
	for _, p := range panes.Panes {
		if p.TerminalID == s.target {
			s.paneID, s.termID = p.PaneID, p.TerminalID
			return nil
		}
	}
	var got protocol.PaneInfoResult
	if err := c.Call("pane.get", protocol.PaneTarget{PaneID: s.target}, &got); err == nil {
		s.paneID, s.termID = got.Pane.PaneID, got.Pane.TerminalID
		return nil
	}
	var agents protocol.AgentList
	if err := c.Call("agent.list", nil, &agents); err != nil {
		return err
	}
	var hits []protocol.AgentInfo
	for _, ag := range agents.Agents {
		if (ag.Name != nil && *ag.Name == s.target) || (ag.Agent != nil && *ag.Agent == s.target) {
			hits = append(hits, ag)
		}
	}
	switch len(hits) {
	case 1:
		s.paneID, s.termID = hits[0].PaneID, hits[0].TerminalID
		return nil
	case 0:
		return errTargetNotFound
	}
	return fmt.Errorf("terminal target %s is ambiguous: %d agents match", s.target, len(hits))
}

// run streams until the terminal ends, the server goes, or (control) the
// input says release; it returns the exit status.
func (s *termStream) run(input func(s *termStream, in *protocol.Client)) int {
	c, sock, code := s.a.connect(s.id)
	if c == nil {
		return code
	}
	defer c.Close()
	s.sock = sock
	s.done = make(chan string, 4)
	if err := s.resolve(c); err != nil {
		if errors.Is(err, errTargetNotFound) {
			if s.action == "attach" {
				s.finish(fmt.Sprintf("terminal attach failed: terminal %s not found", s.target))
			} else {
				s.finish(fmt.Sprintf("terminal session %s failed: terminal target %s not found", s.action, s.target))
			}
			return 1
		}
		if pe := new(protocol.Error); errors.As(err, &pe) {
			return s.a.fail(s.id, pe)
		}
		s.finish(fmt.Sprintf("terminal session %s failed: %v", s.action, err))
		return 1
	}
	if s.control {
		var claimed protocol.TerminalClaimed
		if err := c.Call("terminal.claim", protocol.TerminalClaimParams{TerminalID: s.termID, Takeover: s.takeover}, &claimed); err != nil {
			var pe *protocol.Error
			if errors.As(err, &pe) {
				s.finish(pe.Message)
			} else {
				s.finish(err.Error())
			}
			return 1
		}
	}
	// Events before frames, so an exit right after the first frame is seen.
	ev, err := protocol.Connect(sock)
	if err != nil {
		return s.a.fail(s.id, lostConnection(sock, err))
	}
	defer ev.Close()
	subs := []protocol.Subscription{{Type: "pane.closed"}, {Type: "pane.exited"}, {Type: "pane.moved"}}
	if err := ev.Call("events.subscribe", protocol.EventsSubscribeParams{Subscriptions: subs}, nil); err != nil {
		return s.a.fail(s.id, lostConnection(sock, err))
	}
	go s.followEvents(ev)
	sub, _ := json.Marshal(protocol.Request{ID: "terminal:screen", Method: "screen.subscribe", Params: mustJSON(protocol.ScreenSubscribeParams{PaneIDs: []string{s.paneID}})})
	if err := c.WriteLine(sub); err != nil {
		return s.a.fail(s.id, lostConnection(sock, err))
	}
	go s.readFrames(c)
	if input != nil {
		in, err := protocol.Connect(sock)
		if err != nil {
			return s.a.fail(s.id, lostConnection(sock, err))
		}
		defer in.Close()
		go input(s, in)
	}
	// However it ends (exit, release, takeover), the stream itself worked:
	// the terminal.closed line says why, as Herdr's does.
	s.finish(<-s.done)
	return 0
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// end asks run to finish with reason (the first reason wins).
func (s *termStream) end(reason string) {
	select {
	case s.done <- reason:
	default:
	}
}

// finish writes the closing line once.
func (s *termStream) finish(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended = true
	s.closed(reason)
}

// readFrames turns screen frames into terminal frames.
func (s *termStream) readFrames(c *protocol.Client) {
	for {
		line, err := c.ReadLine()
		if err != nil {
			s.end("server is shutting down")
			return
		}
		var msg struct {
			ID    *string             `json:"id"`
			Event string              `json:"event"`
			Data  json.RawMessage     `json:"data"`
			Error *protocol.ErrorBody `json:"error"`
		}
		if protocol.Unmarshal(line, &msg) != nil {
			continue
		}
		switch {
		case msg.ID != nil && msg.Error != nil:
			s.end(fmt.Sprintf("terminal session %s failed: %s", s.action, msg.Error.Message))
			return
		case msg.Event == protocol.TerminalTakenOver:
			s.end("terminal attach taken over")
			return
		case msg.Event == protocol.ScreenFrameEvent:
			var f protocol.ScreenFrame
			if protocol.Unmarshal(msg.Data, &f) != nil {
				continue
			}
			s.mu.Lock()
			s.modes, s.cols, s.rows = f.Modes, f.Cols, f.Rows
			if !s.ended {
				b, full := s.cv.apply(&f)
				s.seq++
				s.emit(s.seq, s.cv, full, b)
			}
			s.mu.Unlock()
		}
	}
}

// resize changes the size of the frames (the pane keeps the size its tab
// gives it) and sends a full one.
func (s *termStream) resize(cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	b := s.cv.resize(cols, rows)
	s.seq++
	s.emit(s.seq, s.cv, true, b)
}

// pane is the terminal's current public pane id.
func (s *termStream) pane() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paneID
}

// followEvents ends the stream when the terminal's pane closes or exits
// and follows it when it moves (a moved pane gets a new public id).
func (s *termStream) followEvents(ev *protocol.Client) {
	for {
		line, err := ev.ReadLine()
		if err != nil {
			s.end("server is shutting down")
			return
		}
		var msg struct {
			Event string `json:"event"`
			Data  struct {
				PaneID         string `json:"pane_id"`
				PreviousPaneID string `json:"previous_pane_id"`
				Pane           *struct {
					PaneID string `json:"pane_id"`
				} `json:"pane"`
			} `json:"data"`
		}
		if protocol.Unmarshal(line, &msg) != nil {
			continue
		}
		s.mu.Lock()
		mine := msg.Data.PaneID == s.paneID
		if msg.Event == "pane_moved" && msg.Data.PreviousPaneID == s.paneID && msg.Data.Pane != nil {
			s.paneID = msg.Data.Pane.PaneID
		}
		term := s.termID
		s.mu.Unlock()
		if mine && (msg.Event == "pane_closed" || msg.Event == "pane_exited") {
			s.end(fmt.Sprintf("terminal %s exited", term))
			return
		}
	}
}

// jsonFrames makes a stream print Herdr's NDJSON lines on w.
func jsonFrames(s *termStream, w io.Writer) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	s.emit = func(seq uint64, cv *canvas, full bool, b []byte) {
		_ = enc.Encode(protocol.TerminalFrame{Type: protocol.TerminalFrameType, Seq: seq, Encoding: "ansi", Width: cv.width, Height: cv.height, Full: full, Bytes: base64.StdEncoding.EncodeToString(b)})
	}
	s.closed = func(reason string) {
		_ = enc.Encode(protocol.TerminalClosed{Type: protocol.TerminalClosedType, Reason: reason})
	}
}

// controlInput reads terminal.input|resize|scroll|mouse|release lines from r and
// applies them; a bad line is reported on stderr and skipped, as Herdr
// does. End of input releases the terminal.
func controlInput(r io.Reader, stderr io.Writer) func(s *termStream, in *protocol.Client) {
	return func(s *termStream, in *protocol.Client) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), protocol.MaxLineBytes)
		for sc.Scan() {
			line := sc.Bytes()
			if len(trimSpace(line)) == 0 {
				continue
			}
			release, err := s.control1(in, line)
			if err != nil {
				fmt.Fprintf(stderr, "herdr: terminal session control input ignored: %v\n", err)
			}
			if release {
				break
			}
		}
		s.end("detached")
	}
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// control1 applies one control line; release reports terminal.release.
func (s *termStream) control1(in *protocol.Client, line []byte) (release bool, err error) {
	var cmd struct {
		Type      string  `json:"type"`
		Text      *string `json:"text"`
		Bytes     *string `json:"bytes"`
		Cols      *int    `json:"cols"`
		Rows      *int    `json:"rows"`
		Direction string  `json:"direction"`
		Lines     *int    `json:"lines"`
		Source    string  `json:"source"`
		Action    string  `json:"action"`
		Button    string  `json:"button"`
		Column    *int    `json:"column"`
		Row       *int    `json:"row"`
	}
	if err := protocol.Unmarshal(line, &cmd); err != nil {
		return false, fmt.Errorf("invalid json command: %v", err)
	}
	switch cmd.Type {
	case "terminal.input":
		var data string
		switch {
		case cmd.Text != nil && cmd.Bytes != nil:
			return false, errors.New("terminal.input accepts text or bytes, not both")
		case cmd.Text != nil:
			data = *cmd.Text
		case cmd.Bytes != nil:
			b, err := base64.StdEncoding.DecodeString(*cmd.Bytes)
			if err != nil {
				return false, fmt.Errorf("invalid terminal.input bytes: %v", err)
			}
			data = string(b)
		}
		if data == "" {
			return false, nil
		}
		return false, in.Call("pane.send_text", protocol.PaneSendTextParams{PaneID: s.pane(), Text: data}, nil)
	case "terminal.resize":
		if cmd.Cols == nil || cmd.Rows == nil {
			return false, errors.New("terminal.resize needs cols and rows")
		}
		if *cmd.Cols < 1 || *cmd.Rows < 1 || *cmd.Cols > 65535 || *cmd.Rows > 65535 {
			return false, errors.New("terminal.resize cols and rows must be greater than 0")
		}
		s.resize(*cmd.Cols, *cmd.Rows)
		return false, nil
	case "terminal.scroll":
		if cmd.Lines == nil || *cmd.Lines < 1 {
			return false, errors.New("terminal.scroll lines must be greater than 0")
		}
		if cmd.Direction != "up" && cmd.Direction != "down" {
			return false, fmt.Errorf("terminal.scroll direction must be up or down, got %q", cmd.Direction)
		}
		switch cmd.Source {
		case "", "wheel":
			n := *cmd.Lines
			if cmd.Direction == "down" {
				n = -n
			}
			return false, in.Call("screen.scroll", protocol.ScreenScrollParams{PaneID: s.pane(), Lines: n}, nil)
		case "page_key":
			key := "\x1b[5~"
			if cmd.Direction == "down" {
				key = "\x1b[6~"
			}
			return false, in.Call("pane.send_text", protocol.PaneSendTextParams{PaneID: s.pane(), Text: key}, nil)
		}
		return false, fmt.Errorf("terminal.scroll source must be wheel or page_key, got %q", cmd.Source)
	case "terminal.mouse":
		if cmd.Column == nil || cmd.Row == nil || *cmd.Column < 0 || *cmd.Row < 0 {
			return false, errors.New("terminal.mouse needs a column and a row of 0 or more")
		}
		b, err := s.mouseBytes(cmd.Action, cmd.Button, *cmd.Column, *cmd.Row)
		if err != nil || b == "" {
			return false, err
		}
		return false, in.Call("pane.send_text", protocol.PaneSendTextParams{PaneID: s.pane(), Text: b}, nil)
	case "terminal.release":
		return true, nil
	}
	return false, fmt.Errorf("unknown command type %q", cmd.Type)
}

// mouseBytes encodes a terminal.mouse (a cell of the viewport, which
// shows the pane from its top left) for what the pane's program asked
// of the mouse, SGR or X10 coordinates; "" when it asked for none of
// this event, or the cell is off the viewport or the pane: as in Herdr,
// such an event is dropped, not typed.
func (s *termStream) mouseBytes(action, button string, col, row int) (string, error) {
	var b int
	switch button {
	case "left":
		b = 0
	case "middle":
		b = 1
	case "right":
		b = 2
	default:
		return "", fmt.Errorf("terminal.mouse button must be left, right or middle, got %q", protocol.Printable(button))
	}
	s.mu.Lock()
	m, cols, rows := s.modes, min(s.cols, s.cv.width), min(s.rows, s.cv.height)
	s.mu.Unlock()
	send := m.Mouse && col < cols && row < rows
	switch action {
	case "down":
	case "up":
		send = send && !m.MousePressOnly
	case "drag":
		send, b = send && m.MouseDrag, b+32
	case "move":
		send, b = send && m.MouseMotion, 3+32
	default:
		return "", fmt.Errorf("terminal.mouse action must be down, up, drag or move, got %q", protocol.Printable(action))
	}
	switch {
	case !send:
		return "", nil
	case m.MouseSGR:
		end := 'M'
		if action == "up" {
			end = 'm'
		}
		return fmt.Sprintf("\x1b[<%d;%d;%d%c", b, col+1, row+1, end), nil
	case col+33 > 255 || row+33 > 255:
		return "", nil // past what X10 coordinates hold
	case action == "up":
		b = 3
	}
	return "\x1b[M" + string([]byte{byte(32 + b), byte(33 + col), byte(33 + row)}), nil
}
