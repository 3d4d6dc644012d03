package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// `herdr channel show|set` reads and writes [update] channel in
// config.toml. There is nothing to download here, so setting the channel
// only records which releases this install follows.

func (a *app) channelCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{Use: "channel", Short: "Show or set the update channel (stable or preview)"})
	cmd.AddCommand(&cobra.Command{
		Use:   "show",
		Short: "Print the configured update channel",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, _, _ := config.Load(config.Path(a.env))
			fmt.Fprintln(a.stdout, cfg.Update.Channel)
			return nil
		},
	}, &cobra.Command{
		Use:   "set <stable|preview>",
		Short: "Set the update channel in config.toml",
		Args:  exactArgs("<stable|preview>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "stable" && args[0] != "preview" {
				return fmt.Errorf("unknown channel %q (stable or preview)", args[0])
			}
			return exit(a.setChannel(args[0]))
		},
	})
	return cmd
}

func (a *app) setChannel(channel string) int {
	path := config.Path(a.env)
	data, err := protocol.ReadRegularFile(path, protocol.MaxConfigBytes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(a.stderr, "cannot read %s: %v\n", path, err)
		return 1
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		fmt.Fprintf(a.stderr, "config file at %s is invalid TOML: %v. Fix it before changing the update channel.\n", path, err)
		return 1
	}
	updated, err := config.SetKey(string(data), "update", "channel", `"`+channel+`"`)
	if err != nil {
		fmt.Fprintf(a.stderr, "cannot change the update channel in %s: %v; leaving config unchanged\n", path, err)
		return 1
	}
	if err := protocol.WriteFileAtomic(path, []byte(updated), 0o600); err != nil {
		fmt.Fprintf(a.stderr, "cannot write %s: %v\n", path, err)
		return 1
	}
	fmt.Fprintf(a.stdout, "Herdr update channel set to %s in %s.\n", channel, path)
	return 0
}
