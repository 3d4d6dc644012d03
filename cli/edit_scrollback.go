package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// pane.edit_scrollback opens a pane's whole scrollback in the person's
// editor, in a zoomed pane of its own: the server opens that pane running
// `herdr pane scrollback-editor <pane>` (hidden), which reads the text
// (pane.selection.read, in chunks), writes it to a private temporary file,
// runs $VISUAL or $EDITOR on it in the pane's terminal and removes the
// file when the editor ends; the pane closes with it.

// ScrollbackEditMaxBytes bounds the text the editor gets: past it the
// oldest lines are left out and the file's first line says so.
const ScrollbackEditMaxBytes = 64 << 20

// scrollbackChunkRows is how many rows one pane.selection.read asks for.
const scrollbackChunkRows = 2000

func (a *app) paneScrollbackEditorCmd() *cobra.Command {
	// edit-scrollback: the table's (cli/fromtable.go).
	return &cobra.Command{
		Use:    "scrollback-editor <pane>",
		Short:  "Edit a pane's scrollback in $VISUAL or $EDITOR here (what pane.edit_scrollback's pane runs)",
		Args:   exactArgs("<pane>"),
		Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.scrollbackEditor(args[0]))
		},
	}
}

func (a *app) scrollbackEditor(paneID string) int {
	const id = "cli:pane:scrollback-editor"
	c, _, code := a.connect(id)
	if c == nil {
		return code
	}
	text, err := readScrollback(c, paneID)
	c.Close()
	if err != nil {
		// The pane closes when this ends: keep the message on it until
		// the person has read it.
		code := a.fail(id, err)
		fmt.Fprintln(a.stderr, "press enter to close")
		_, _ = fmt.Fscanln(os.Stdin)
		return code
	}
	f, err := os.CreateTemp("", "herdr-scrollback-*.txt")
	if err != nil {
		return a.fail(id, err)
	}
	defer os.Remove(f.Name())
	_, err = io.WriteString(f, text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return a.fail(id, err)
	}
	argv := append(scrollbackEditorArgv(), f.Name())
	ed := exec.Command(argv[0], argv[1:]...)
	ed.Stdin, ed.Stdout, ed.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := ed.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		return a.fail(id, fmt.Errorf("run %s: %w", argv[0], err))
	}
	return 0
}

// readScrollback reads a pane's whole text, history and screen, newest
// chunk first until ScrollbackEditMaxBytes, all at one content revision:
// when the pane's text moves meanwhile it starts again, once; a pane that
// keeps printing is then read as it goes (a chunk boundary may fall on
// moved text).
func readScrollback(c *protocol.Client, paneID string) (string, error) {
	var err error
	for _, pinned := range []bool{true, true, false} {
		var text string
		if text, err = readScrollbackOnce(c, paneID, pinned); err == nil || !isStaleContent(err) {
			return text, err
		}
	}
	return "", err
}

func isStaleContent(err error) bool {
	var pe *protocol.Error
	return errors.As(err, &pe) && pe.Code == protocol.CodeStaleContentRevision
}

func readScrollbackOnce(c *protocol.Client, paneID string, pinned bool) (string, error) {
	// A point past the end is clamped onto the last row: the motion's
	// answer says how many rows the text has, at its revision.
	var mo protocol.PaneCopyMotion
	if err := c.Call("pane.copy_motion", protocol.PaneCopyMotionParams{PaneID: paneID, Cursor: protocol.PaneTextPoint{Row: ^uint32(0)}, Motion: protocol.MotionFirstNonBlank}, &mo); err != nil {
		return "", err
	}
	rev := &mo.ContentRevision
	if !pinned {
		rev = nil
	}
	rows := uint64(mo.Cursor.Row) + 1
	var chunks []string
	size, cut := 0, false
	for end := rows; end > 0 && !cut; {
		start := end - min(end, scrollbackChunkRows)
		var sel protocol.PaneSelection
		if err := c.Call("pane.selection.read", protocol.PaneSelectionReadParams{PaneID: paneID,
			Anchor:          protocol.PaneTextPoint{Row: uint32(start)},
			Cursor:          protocol.PaneTextPoint{Row: uint32(end - 1), Col: ^uint16(0)},
			ContentRevision: rev}, &sel); err != nil {
			return "", err
		}
		chunk := strings.TrimSuffix(sel.Text, "\n")
		if size+len(chunk)+1 > ScrollbackEditMaxBytes {
			// Keep the newest lines of the chunk that fit.
			keep := chunk[len(chunk)-min(len(chunk), ScrollbackEditMaxBytes-size):]
			if i := strings.IndexByte(keep, '\n'); i >= 0 {
				keep = keep[i+1:]
			}
			chunk, cut = keep, true
		}
		chunks = append(chunks, chunk)
		size += len(chunk) + 1
		end = start
	}
	var b strings.Builder
	if cut {
		fmt.Fprintf(&b, "[herdr: older lines left out past %d MiB]\n", ScrollbackEditMaxBytes>>20)
	}
	for i := len(chunks) - 1; i >= 0; i-- {
		b.WriteString(chunks[i])
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// scrollbackEditorArgv is the person's editor: $VISUAL, else $EDITOR,
// else vi (notepad on Windows).
func scrollbackEditorArgv() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	if runtime.GOOS == "windows" {
		return []string{"notepad"}
	}
	return []string{"vi"}
}
