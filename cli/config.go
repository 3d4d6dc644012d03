package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// configCmd is `herdr config`: local commands on config.toml that need no
// server. It also gives root the --default-config flag, which prints the
// full default file instead of attaching, and --skill, which prints the
// agent skill file.
func (a *app) configCmd(root *cobra.Command) *cobra.Command {
	var defaultConfig, skill bool
	root.Flags().BoolVar(&defaultConfig, "default-config", false, "print the default config.toml, every key commented, and exit")
	root.Flags().BoolVar(&skill, "skill", false, "print the agent skill file (how an agent drives herdr from a pane) and exit")
	attach := root.RunE
	root.RunE = func(cmd *cobra.Command, args []string) error {
		switch {
		case defaultConfig:
			fmt.Fprint(a.stdout, config.DefaultFile())
			return nil
		case skill:
			fmt.Fprint(a.stdout, skillFile)
			return nil
		}
		return attach(cmd, args)
	}

	cmd := a.group(&cobra.Command{
		Use:   "config",
		Short: "Check, locate and reset config.toml",
		Long: `Commands on config.toml, run locally without a server. The file is
$HERDR_CONFIG_PATH, else config.toml in the config directory; ` + "`herdr --default-config`" + `
prints a complete file holding the defaults.`,
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "check",
		Short: "Validate config.toml and print every problem",
		Long: `Validate config.toml: prints "config: ok", or "config: issues found" and one
line per problem (exit 1). A missing file is fine: the defaults apply.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.rt == nil {
				return exit(a.handToFull())
			}
			// The client's view: the parser's problems, and keys it does not support.
			diags := a.rt.ConfigDiagnostics(config.Path(a.env))
			if len(diags) == 0 {
				fmt.Fprintln(a.stdout, "config: ok")
				return nil
			}
			fmt.Fprintln(a.stdout, "config: issues found")
			for _, d := range diags {
				fmt.Fprintln(a.stdout, d)
			}
			return exitCode(1)
		},
	}, &cobra.Command{
		Use:   "path",
		Short: "Print the path of config.toml",
		Args:  exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(a.stdout, config.Path(a.env))
			return nil
		},
	}, &cobra.Command{
		Use:   "reset-keys",
		Short: "Back up config.toml and remove its key bindings",
		Long: `Copy config.toml to config.toml.bak-keybind-v2-<unix time>, then remove
[keys], [keys.indexed] and every [[keys.command]] from it so the built-in
bindings apply. Everything else in the file, comments included, is kept.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error { return exit(a.resetKeys(time.Now())) },
	})
	return cmd
}

// resetKeys removes the key tables from config.toml after backing it up.
func (a *app) resetKeys(now time.Time) int {
	path := config.Path(a.env)
	data, err := protocol.ReadRegularFile(path, protocol.MaxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(a.stdout, "No config file at %s; the built-in key bindings already apply.\n", path)
		return 0
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "cannot read %s: %v\n", path, err)
		return 1
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		fmt.Fprintf(a.stderr, "%s is not valid TOML (%v); fix it or move it aside first\n", path, err)
		return 1
	}
	if _, ok := doc["keys"]; !ok {
		fmt.Fprintf(a.stdout, "No [keys] in %s; the built-in key bindings already apply.\n", path)
		return 0
	}
	updated := removeKeyTables(string(data))
	var check map[string]any
	if err := toml.Unmarshal([]byte(updated), &check); err != nil {
		fmt.Fprintf(a.stderr, "removing the key bindings would leave %s invalid (%v); it is unchanged\n", path, err)
		return 1
	}
	if _, still := check["keys"]; still {
		fmt.Fprintf(a.stderr, "cannot remove the key bindings of %s safely (keys written inline?); edit it by hand\n", path)
		return 1
	}
	backup := path + ".bak-keybind-v2-" + strconv.FormatInt(now.Unix(), 10)
	info, err := os.Stat(path)
	if err != nil {
		fmt.Fprintf(a.stderr, "cannot read %s: %v\n", path, err)
		return 1
	}
	if err := writeNew(backup, data, info.Mode().Perm()); err != nil {
		fmt.Fprintf(a.stderr, "cannot write the backup %s: %v\n", backup, err)
		return 1
	}
	if err := protocol.WriteFileAtomic(path, []byte(updated), info.Mode().Perm()); err != nil {
		fmt.Fprintf(a.stderr, "cannot rewrite %s: %v (the backup is %s)\n", path, err, backup)
		return 1
	}
	fmt.Fprintf(a.stdout, "Backed up %s to %s.\n", path, backup)
	fmt.Fprintf(a.stdout, "Removed [keys], [keys.indexed] and [[keys.command]]; the built-in key bindings apply after `%s` or a restart.\n", a.herdrCmd("server reload-config"))
	fmt.Fprintf(a.stdout, "To undo: cp %s %s\n", backup, path)
	return 0
}

// removeKeyTables drops every table headed [keys], [keys.*] or
// [[keys.*]] with its lines, and a top-level "keys = …" line; the rest of
// the text is kept as written.
func removeKeyTables(text string) string {
	var out []string
	skipping, inTable := false, false
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		if header, _, ok := config.TableHeader(t); ok {
			inTable = true
			skipping = header == "keys" || strings.HasPrefix(header, "keys.")
			if skipping {
				continue
			}
		} else if skipping {
			continue
		} else if !inTable && (strings.HasPrefix(t, "keys=") || strings.HasPrefix(t, "keys ") || strings.HasPrefix(t, "keys.")) {
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "")
}

// writeNew writes a file that must not exist yet (a backup): never over
// another file, never through a link at its path.
func writeNew(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
