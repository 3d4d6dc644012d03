package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) layoutCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "layout",
		Short: "Export, apply and adjust tab layouts",
		Long: `A layout is a tab's tree of splits as portable JSON: a node is either
{"type":"pane", "cwd", "label", "command":[argv...], "env":{...}} or
{"type":"split", "direction":"right"|"down", "ratio", "first", "second"}.
Every subcommand sends one request and prints the JSON response line.`,
	})
	cmd.AddCommand(a.layoutExportCmd(), a.layoutApplyCmd(), a.layoutSetRatioCmd())
	return cmd
}

// tabOrPane is the --tab T | --pane P pair naming a tab; neither means the
// server's focused tab.
type tabOrPane struct{ tab, pane string }

func (s *tabOrPane) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.tab, "tab", "", "the tab (default: the server's focused tab)")
	cmd.Flags().StringVar(&s.pane, "pane", "", "the tab of this pane")
	cmd.MarkFlagsMutuallyExclusive("tab", "pane")
}

func (a *app) layoutExportCmd() *cobra.Command {
	var sel tabOrPane
	cmd := &cobra.Command{
		Use:   "export [--tab T|--pane P]",
		Short: summary("layout.export"),
		Long: summary("layout.export") + `: its split tree with each pane's id, label,
cwd and command. The layout (.result.layout.root) can be given to
'herdr layout apply'.`,
		Example: `  herdr layout export --tab w1:t1 > layout.json
  herdr layout export --pane w1:p2 | herdr layout apply --file -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:layout:export", "layout.export", protocol.LayoutExportParams{
				TabID: optional(cmd, "tab", sel.tab), PaneID: optional(cmd, "pane", sel.pane),
			}))
		},
	}
	sel.bind(cmd)
	return cmd
}

func (a *app) layoutApplyCmd() *cobra.Command {
	var (
		file, workspace, tab, tabLabel string
		focus                          bool
	)
	cmd := &cobra.Command{
		Use:   "apply --file PATH|- [--workspace W] [--tab T] [--tab-label L] [--focus]",
		Short: summary("layout.apply"),
		Long: summary("layout.apply") + ` read from --file (- for stdin): a layout
node, or the output of 'herdr layout export' (its .result.layout.root is used).
Every pane starts in its cwd with its command (argv, no shell), or none does.
The tab goes in --workspace, else the workspace of --tab, else the active one;
with --tab the new tab replaces that tab. It is not focused unless --focus
(or it replaces the focused tab).`,
		Example: `  herdr layout apply --file dev.json --tab-label dev --focus
  echo '{"type":"split","direction":"right","ratio":0.5,"first":{"type":"pane"},"second":{"type":"pane","command":["htop"]}}' | herdr layout apply --file -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := a.readLayout(file)
			if err != nil {
				return err
			}
			return exit(a.call("cli:layout:apply", "layout.apply", protocol.LayoutApplyParams{
				Root: root, Focus: focus, TabID: optional(cmd, "tab", tab),
				TabLabel: optional(cmd, "tab-label", tabLabel), WorkspaceID: optional(cmd, "workspace", workspace),
			}))
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "JSON layout file, - for stdin (required)")
	cmd.Flags().StringVar(&workspace, "workspace", "", "create the tab in this workspace")
	cmd.Flags().StringVar(&tab, "tab", "", "replace this tab with the new one")
	cmd.Flags().StringVar(&tabLabel, "tab-label", "", "label of the new tab")
	cmd.Flags().BoolVar(&focus, "focus", false, "focus the new tab")
	_ = cmd.MarkFlagRequired("file")
	return cmd
}

// maxInputBytes bounds a file the CLI reads for a command (a layout, a
// saved screen): a device or a FIFO is refused at once, a bigger file is
// refused rather than read into memory.
const maxInputBytes = 16 << 20

// readLayout reads a layout node from path (- = stdin). It accepts a bare
// node, a layout description ({"root":…}) or a whole layout.export response.
// The tree is sent as written: the server validates it (invalid_layout).
func (a *app) readLayout(path string) (*protocol.LayoutNode, error) {
	var (
		b   []byte
		err error
	)
	if path == "-" {
		if b, err = io.ReadAll(io.LimitReader(a.stdin, maxInputBytes+1)); err == nil && len(b) > maxInputBytes {
			err = fmt.Errorf("standard input: larger than %d bytes", maxInputBytes)
		}
	} else {
		if path == "" {
			return nil, errors.New("--file must not be empty")
		}
		if path, err = a.absPath(path); err == nil {
			b, err = protocol.ReadRegularFile(path, maxInputBytes)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read layout: %v", err)
	}
	raw := json.RawMessage(bytes.TrimSpace(b))
	for range 4 { // a response holds a result, which holds a layout, which holds a root
		var m map[string]json.RawMessage
		if err := protocol.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("invalid layout JSON in %s: %v", path, err)
		}
		var typ string
		_ = protocol.Unmarshal(m["type"], &typ)
		if typ == "pane" || typ == "split" {
			break
		}
		inner := false
		for _, key := range []string{"result", "layout", "root"} {
			if v, ok := m[key]; ok {
				raw, inner = v, true
				break
			}
		}
		if !inner {
			break
		}
	}
	var node protocol.LayoutNode
	if err := protocol.Unmarshal(raw, &node); err != nil {
		return nil, fmt.Errorf("invalid layout JSON in %s: %v", path, err)
	}
	return &node, nil
}

// parseSplitPath turns "0,1,1" into [false,true,true]; "" or "root" is the root.
func parseSplitPath(s string) ([]bool, error) {
	path := []bool{}
	s = strings.TrimSpace(s)
	if s == "" || s == "root" {
		return path, nil
	}
	for _, part := range strings.Split(s, ",") {
		switch strings.TrimSpace(part) {
		case "0":
			path = append(path, false)
		case "1":
			path = append(path, true)
		default:
			return nil, fmt.Errorf("invalid --path %q: expected a comma list of 0 (first) and 1 (second), e.g. 0,1", s)
		}
	}
	return path, nil
}

func (a *app) layoutSetRatioCmd() *cobra.Command {
	var (
		sel   tabOrPane
		path  string
		ratio float64
	)
	cmd := &cobra.Command{
		Use:   "set-ratio [--tab T|--pane P] [--path 0,1,...] --ratio F",
		Short: summary("layout.set_split_ratio"),
		Long: summary("layout.set_split_ratio") + `. --path leads from the root split
to the one to change: 0 takes the first child (left or top), 1 the second;
no path (or "root") is the root split. The ratio is the first child's share,
kept within 0.1-0.9. Prints the tab's new layout.`,
		Example: `  herdr layout set-ratio --tab w1:t1 --ratio 0.3
  herdr layout set-ratio --pane w1:p2 --path 1,0 --ratio 0.6`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := parseSplitPath(path)
			if err != nil {
				return err
			}
			return exit(a.call("cli:layout:set-ratio", "layout.set_split_ratio", protocol.LayoutSetSplitRatioParams{
				Path: p, Ratio: &ratio, TabID: optional(cmd, "tab", sel.tab), PaneID: optional(cmd, "pane", sel.pane),
			}))
		},
	}
	sel.bind(cmd)
	cmd.Flags().StringVar(&path, "path", "", "the split: comma list of 0 and 1 from the root (default: the root)")
	cmd.Flags().Float64Var(&ratio, "ratio", 0, "the first child's share, between 0 and 1 (required)")
	_ = cmd.MarkFlagRequired("ratio")
	return cmd
}
