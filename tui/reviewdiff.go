package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The diff view (issue 49): a worktree's branch against its base
// (worktree.diff) as a file list above the diff, drawn line by line with
// the review comments (review.list) under the lines they are on. n and p
// go to the next and previous hunk, ] and [ to the next and previous
// file, j and k (or the arrows) move the cursor a line; c comments on the
// cursor's line (typed on the status row, Enter keeps it, Esc drops it);
// s sends the pending comments to the agent, M accepts with a merge, A
// accepts for a pull request; r reads it again; q or Esc closes. It is a
// component with its own state, keys and drawing that reaches the client
// only through reviewHost; keys come as their names (k.String()), so the
// client routes them whichever Bubble Tea it runs on.

// reviewHost is what the diff view needs of the client around it.
type reviewHost interface {
	// rpc calls the server on the request connection; nil while there
	// is none.
	rpc() rpcFunc
}

// diffRow is one row of the drawn diff.
type diffRow struct {
	kind string // file, hunk, add, del, ctx, meta, comment
	text string
	file string // the file the row belongs to
	line int    // the line comments use (0: none to comment on)
}

// diffView is the component.
type diffView struct {
	host    reviewHost
	open    bool
	subject protocol.ReviewSubject
	diff    protocol.WorktreeDiff
	threads []protocol.ReviewThread
	rows    []diffRow
	cur     int // the cursor's row
	top     int // the first row shown
	// typing is the comment being typed (commenting says it is open).
	typing     string
	commenting bool
	status     string
	busy       bool
}

// Messages of the diff view's calls.
type (
	diffLoadedMsg struct {
		subject protocol.ReviewSubject
		diff    protocol.WorktreeDiff
		threads []protocol.ReviewThread
		err     error
	}
	// diffDoneMsg is a comment, send or accept answered: what to say, and
	// whether to read the diff again.
	diffDoneMsg struct {
		say    string
		err    error
		reload bool
	}
)

func newDiffView(h reviewHost) diffView { return diffView{host: h} }

// openDiff opens the view on a worktree workspace or a task and reads it.
func (v *diffView) openDiff(s protocol.ReviewSubject) tea.Cmd {
	v.open, v.subject, v.cur, v.top, v.commenting, v.typing = true, s, 0, 0, false, ""
	v.rows, v.status = nil, "reading the diff…"
	return v.load()
}

func (v *diffView) load() tea.Cmd {
	call, s := v.host.rpc(), v.subject
	if call == nil {
		v.status = "not connected"
		return nil
	}
	return func() tea.Msg {
		var d protocol.WorktreeDiff
		if err := call("worktree.diff", protocol.WorktreeDiffParams{WorkspaceID: s.WorkspaceID, TaskID: s.TaskID}, &d); err != nil {
			return diffLoadedMsg{subject: s, err: err}
		}
		var l protocol.ReviewList
		err := call("review.list", protocol.ReviewListParams(s), &l)
		return diffLoadedMsg{subject: s, diff: d, threads: l.Threads, err: err}
	}
}

// update handles the diff view's messages; ok is false for any other.
func (v *diffView) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case diffLoadedMsg:
		if !v.open || msg.subject != v.subject {
			return nil, true
		}
		if msg.err != nil {
			v.status = msg.err.Error()
			return nil, true
		}
		v.diff, v.threads = msg.diff, msg.threads
		v.rows = diffRows(v.diff, v.comments())
		v.cur = min(v.cur, max(len(v.rows)-1, 0))
		v.status = v.summary()
		return nil, true
	case diffDoneMsg:
		v.busy = false
		if msg.err != nil {
			v.status = msg.err.Error()
			return nil, true
		}
		v.status = msg.say
		if msg.reload {
			return v.load(), true
		}
		return nil, true
	}
	return nil, false
}

func (v *diffView) comments() []protocol.ReviewComment {
	if len(v.threads) == 0 {
		return nil
	}
	return v.threads[0].Comments
}

func (v *diffView) summary() string {
	pending := 0
	for _, c := range v.comments() {
		if c.Status == protocol.ReviewCommentPending {
			pending++
		}
	}
	s := v.diff.Branch + " against " + v.diff.Base + " · " + strconv.Itoa(len(v.diff.Files)) + " files · " + strconv.Itoa(pending) + " pending"
	if v.diff.Truncated {
		s += " · cut at its bound"
	}
	return s + " · n/p hunk  c comment  s send  M merge  A accept  q close"
}

// diffRows lays a diff out as rows: each file's header, its hunks' lines
// numbered as comments number them (the new side; the old for a deleted
// file), and each comment under its line.
func diffRows(d protocol.WorktreeDiff, comments []protocol.ReviewComment) []diffRow {
	deleted := map[string]bool{}
	for _, f := range d.Files {
		if f.Status == "D" {
			deleted[f.Path] = true
		}
	}
	var rows []diffRow
	file, oldNo, newNo, inHunk := "", 0, 0, false
	for _, line := range strings.Split(strings.TrimSuffix(d.Diff, "\n"), "\n") {
		if strings.HasPrefix(line, "diff --git ") {
			if _, b, ok := strings.Cut(line, " b/"); ok {
				file = b
			}
			rows = append(rows, diffRow{kind: "file", text: file, file: file})
			inHunk = false
			continue
		}
		if file == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "@@ -"); ok {
			o, n, _ := strings.Cut(rest, " +")
			n, _, _ = strings.Cut(n, " ")
			oldNo, _ = hunkStart(o)
			newNo, _ = hunkStart(n)
			inHunk = true
			rows = append(rows, diffRow{kind: "hunk", text: line, file: file})
			continue
		}
		if !inHunk {
			continue
		}
		r := diffRow{text: line, file: file}
		switch {
		case strings.HasPrefix(line, "+"):
			r.kind, r.line = "add", newNo
			newNo++
		case strings.HasPrefix(line, "-"):
			r.kind = "del"
			if deleted[file] {
				r.line = oldNo
			}
			oldNo++
		case strings.HasPrefix(line, "\\"):
			r.kind = "meta"
		default:
			r.kind, r.line = "ctx", newNo
			newNo++
			oldNo++
		}
		rows = append(rows, r)
		if r.line > 0 {
			for _, c := range comments {
				if c.File == file && c.Line == r.line {
					rows = append(rows, diffRow{kind: "comment", text: "» " + c.Text + " (" + c.Status + ")", file: file})
				}
			}
		}
	}
	return rows
}

// hunkStart reads "start,count" or "start".
func hunkStart(s string) (int, bool) {
	a, _, _ := strings.Cut(s, ",")
	n, err := strconv.Atoi(a)
	return n, err == nil
}

// key handles a key while the view is open; the name is Bubble Tea's
// (k.String()).
func (v *diffView) key(k string) tea.Cmd {
	if v.commenting {
		return v.typeKey(k)
	}
	switch k {
	case "q", "esc":
		v.open = false
	case "j", "down":
		v.move(1)
	case "k", "up":
		v.move(-1)
	case "n":
		v.jump("hunk", 1)
	case "p":
		v.jump("hunk", -1)
	case "]":
		v.jump("file", 1)
	case "[":
		v.jump("file", -1)
	case "r":
		return v.load()
	case "c":
		if v.cur < len(v.rows) && v.rows[v.cur].line > 0 {
			v.commenting, v.typing = true, ""
		} else {
			v.status = "no line to comment on here: move to a line of a hunk"
		}
	case "s":
		return v.act("review.send", protocol.ReviewSendParams{WorkspaceID: v.subject.WorkspaceID, TaskID: v.subject.TaskID})
	case "M", "A":
		return v.act("review.accept", protocol.ReviewAcceptParams{WorkspaceID: v.subject.WorkspaceID, TaskID: v.subject.TaskID, Merge: k == "M"})
	}
	return nil
}

// typeKey edits the comment being typed.
func (v *diffView) typeKey(k string) tea.Cmd {
	switch k {
	case "esc":
		v.commenting, v.typing = false, ""
	case "enter":
		r := v.rows[v.cur]
		text := v.typing
		v.commenting, v.typing = false, ""
		if strings.TrimSpace(text) == "" {
			return nil
		}
		return v.act("review.comment", protocol.ReviewCommentParams{WorkspaceID: v.subject.WorkspaceID, TaskID: v.subject.TaskID, File: r.file, Line: r.line, Text: text})
	case "backspace":
		if rs := []rune(v.typing); len(rs) > 0 {
			v.typing = string(rs[:len(rs)-1])
		}
	case "space":
		v.typing += " "
	default:
		if rs := []rune(k); len(rs) == 1 && rs[0] >= ' ' && len(v.typing) < protocol.MaxReviewCommentText {
			v.typing += k
		}
	}
	return nil
}

// act makes a call that changes the review and reads the diff again.
func (v *diffView) act(method string, params any) tea.Cmd {
	call := v.host.rpc()
	if call == nil || v.busy {
		return nil
	}
	v.busy = true
	return func() tea.Msg {
		switch method {
		case "review.send":
			var r protocol.ReviewSent
			if err := call(method, params, &r); err != nil {
				return diffDoneMsg{err: err}
			}
			if r.Delivered {
				return diffDoneMsg{say: "sent to " + r.Agent, reload: true}
			}
			return diffDoneMsg{say: "queued for " + r.Agent + ": typed when its turn ends", reload: true}
		case "review.accept":
			var r protocol.ReviewAccepted
			if err := call(method, params, &r); err != nil {
				return diffDoneMsg{err: err}
			}
			if r.Merged {
				return diffDoneMsg{say: "merged " + r.Branch + " into " + r.Base}
			}
			return diffDoneMsg{say: "push for a pull request: " + r.PushCommand}
		}
		err := call(method, params, nil)
		return diffDoneMsg{err: err, reload: err == nil, say: "comment kept"}
	}
}

func (v *diffView) move(d int) {
	v.cur = min(max(v.cur+d, 0), max(len(v.rows)-1, 0))
}

// jump moves the cursor to the next (1) or previous (-1) row of kind.
func (v *diffView) jump(kind string, d int) {
	for i := v.cur + d; i >= 0 && i < len(v.rows); i += d {
		if v.rows[i].kind == kind {
			v.cur = i
			return
		}
	}
}

// files is the file list's text: status, counts and path of each file.
func (v *diffView) files() []string {
	out := make([]string, 0, len(v.diff.Files))
	for _, f := range v.diff.Files {
		n := "+" + strconv.Itoa(f.Additions) + " -" + strconv.Itoa(f.Deletions)
		if f.Binary {
			n = "binary"
		}
		out = append(out, f.Status+" "+f.Path+"  "+n)
	}
	return out
}

// draw draws the view over r: the file list (at most a third of the
// rows), the diff around the cursor, and the status or comment row.
func (v *diffView) draw(c *canvas, r protocol.Rect, th *theme) {
	if !v.open || r.Width < 10 || r.Height < 4 {
		return
	}
	c.fill(r.X, r.Y, r.Width, r.Height, " ", cellStyle{})
	files := v.files()
	nf := min(len(files), max(r.Height/3, 1))
	y := r.Y
	c.text(r.X, y, "review: "+protocol.Printable(v.diff.Branch)+" → "+protocol.Printable(v.diff.Base), r.Width, th.header)
	y++
	cur := ""
	if v.cur < len(v.rows) {
		cur = v.rows[v.cur].file
	}
	for i := 0; i < nf; i++ {
		st := th.dim
		if v.diff.Files[i].Path == cur {
			st = th.selected
		}
		c.text(r.X+1, y, protocol.Printable(files[i]), r.Width-1, st)
		y++
	}
	c.text(r.X, y, strings.Repeat("─", r.Width), r.Width, th.border)
	y++
	h := r.Y + r.Height - 1 - y // rows for the diff, the last row for status
	if h > 0 {
		v.top = min(max(v.top, v.cur-h+1, 0), v.cur)
		for i := v.top; i < len(v.rows) && i < v.top+h; i++ {
			row := v.rows[i]
			st := cellStyle{}
			switch row.kind {
			case "file":
				st = th.header
			case "hunk":
				st = cellStyle{fg: th.p.teal}
			case "add":
				st = cellStyle{fg: th.p.green}
			case "del":
				st = cellStyle{fg: th.p.red}
			case "comment":
				st = cellStyle{fg: th.p.yellow}
			}
			if i == v.cur {
				st.bg = th.p.surface1
				c.fill(r.X, y, r.Width, 1, " ", st)
			}
			no := "    "
			if row.line > 0 {
				no = padLeft(strconv.Itoa(row.line), 4)
			}
			c.text(r.X, y, no+" "+protocol.Printable(strings.ReplaceAll(row.text, "\t", "    ")), r.Width, st)
			y++
		}
	}
	last := r.Y + r.Height - 1
	if v.commenting {
		c.text(r.X, last, "comment: "+protocol.Printable(v.typing)+"▏", r.Width, th.focus)
	} else {
		c.text(r.X, last, protocol.Printable(v.status), r.Width, th.dim)
	}
}

func padLeft(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat(" ", n-len(s)) + s
}
