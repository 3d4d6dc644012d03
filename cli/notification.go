package cli

import (
	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) notificationCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "notification",
		Short: "Show notifications on the attached client",
	})
	var body, position, sound string
	show := &cobra.Command{
		Use:   "show <title> [--body T] [--position top-left|top-right|bottom-left|bottom-right] [--sound none|done|request]",
		Short: summary("notification.show"),
		Long: summary("notification.show") + ` and print the response: shown, or why not
(disabled when [ui.toast] delivery is off, rate_limited, no_foreground_client,
busy). The title is cut to 80 characters, the body to 240.`,
		Args: exactArgs("<title>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.NotificationShowParams{Title: args[0], Body: optional(cmd, "body", body), Position: optional(cmd, "position", position), Sound: sound}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.call("cli:notification:show", "notification.show", p))
		},
	}
	show.Flags().StringVar(&body, "body", "", "text under the title")
	show.Flags().StringVar(&position, "position", "", "corner of the screen (herdr delivery)")
	show.Flags().StringVar(&sound, "sound", "", "none, done or request")
	cmd.AddCommand(show)
	return cmd
}
