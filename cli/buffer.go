package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// herdr buffer: the server's paste buffers (actors/buffers).
func (a *app) bufferCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "buffer",
		Short: "Paste buffers kept by the server: list, get, set, delete, paste",
		Long: fmt.Sprintf(`The server keeps up to %d paste buffers of up to %d bytes each, newest first,
as long as it runs. A yank in the client's copy mode keeps one (as well as the
OSC 52 clipboard); buffer set keeps any text. A buffer set without --name is
named buffer0, buffer1, … (a number is never given twice); setting a name that
exists replaces its text. Past the bound the oldest goes. Where a buffer may be
omitted, the newest is meant.`, protocol.BufferMaxCount, protocol.BufferMaxBytes),
	})

	// list and delete: the table's (cli/fromtable.go).

	var getJSON bool
	cmd.AddCommand(jsonFlag(&cobra.Command{
		Use:   "get [<buffer>]",
		Short: summary("buffer.get"),
		Long: summary("buffer.get") + `. Prints the text itself, as it was kept
(no newline added), for a pipe; --json prints the response line.`,
		Example: `  herdr buffer get > selection.txt
  herdr buffer get buffer3 --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.BufferGetParams{}
			if len(args) == 1 {
				p.Buffer = args[0]
			}
			ok := a.printLine
			if !getJSON {
				ok = a.printBufferText
			}
			return exit(a.request("cli:buffer:get", "buffer.get", p, ok))
		},
	}, &getJSON))

	var name string
	set := &cobra.Command{
		Use:   "set [<text>|-] [--name N]",
		Short: summary("buffer.set"),
		Long: summary("buffer.set") + ` and print the response line (its name).
The text is the argument, or stdin when it is - or omitted.`,
		Example: `  herdr buffer set 'git push origin HEAD'
  printf 'make test\n' | herdr buffer set --name tests`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.BufferSetParams{Name: name}
			if len(args) == 1 && args[0] != "-" {
				p.Text = args[0]
			} else {
				b, err := io.ReadAll(io.LimitReader(a.stdin, protocol.BufferMaxBytes+1))
				if err != nil {
					return fmt.Errorf("read the text from stdin: %v", err)
				}
				p.Text = string(b)
			}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.call("cli:buffer:set", "buffer.set", p))
		},
	}
	set.Flags().StringVar(&name, "name", "", "name the buffer (replacing one of that name)")
	cmd.AddCommand(set)

	var sel paneSel
	var which string
	paste := &cobra.Command{
		Use:   "paste [<pane>|--pane ID|--current] [--buffer B]",
		Short: summary("buffer.paste"),
		Long: summary("buffer.paste") + `; prints nothing on success. The pane is the
argument, --pane, or the calling pane ($HERDR_PANE_ID). The text goes as it
was kept, less any bracketed-paste marker in it.`,
		Example: `  herdr buffer paste w1:p2
  herdr buffer paste --current --buffer tests`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, err := sel.target(a, cmd, args)
			if err != nil {
				return err
			}
			if target == nil {
				if id := a.env("HERDR_PANE_ID"); id != "" {
					target = &id
				} else {
					return errors.New("missing argument <pane> (or run it inside a herdr pane)")
				}
			}
			p := protocol.BufferPasteParams{PaneID: *target, Buffer: which}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.silent("cli:buffer:paste", "buffer.paste", p))
		},
	}
	sel.bind(paste)
	paste.Flags().StringVar(&which, "buffer", "", "the buffer to paste (default: the newest)")
	cmd.AddCommand(paste)
	return cmd
}

// printBufferText prints buffer.get's text as it is.
func (a *app) printBufferText(line []byte, resp protocol.Response) int {
	var r protocol.BufferInfoResult
	if err := protocol.Unmarshal(resp.Result, &r); err != nil {
		return a.printLine(line, resp)
	}
	_, _ = io.WriteString(a.stdout, r.Buffer.Text)
	return 0
}

func drawBuffers(w io.Writer, r protocol.BufferList) {
	row(w, "NAME", "BYTES", "SET", "TEXT")
	for _, b := range r.Buffers {
		row(w, b.Name, strconv.Itoa(b.Bytes), time.UnixMilli(b.Created).Format("15:04:05"), b.Preview)
	}
}
