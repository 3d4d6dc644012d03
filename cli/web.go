package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// webCmd is `herdr web [--listen ADDR]` and `herdr web url`: both print
// the dashboard's URL, token included.
func (a *app) webCmd() *cobra.Command {
	var listen, policy string
	cmd := &cobra.Command{
		Use:   "web",
		Short: "Serve the web dashboard and print its URL",
		Long: `Ask the server to serve its web dashboard ([web] listen in config.toml, else
--listen, else 127.0.0.1:7681) and print the URL that opens it. The URL carries
a token the server made when it started serving (also in web-token in the
session's state folder, mode 0600); every request needs it. An address
beyond loopback is refused unless [web] allow_remote = true. With --policy NAME
(the dashboard running) it prints a URL whose token carries that [[policy]] of
config.toml instead: every call of a page opened with it is limited by the
policy and written to the audit log (herdr audit); the token lasts as long as
the server.`,
		Example: `  herdr web
  herdr web --listen 127.0.0.1:8080
  herdr web url
  herdr web --policy reviewer`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			onOK := a.printWebURL
			if policy != "" {
				onOK = func(line []byte, resp protocol.Response) int {
					var r protocol.WebStarted
					if err := protocol.Unmarshal(resp.Result, &r); err != nil || r.Policy != policy {
						// Never print an unlimited URL for a limited one.
						return a.fail(resp.ID, protocol.Errorf(protocol.CodeNotSupported, "the server did not mint a token for policy %s (a server older than policies?); restart it with this herdr", policy))
					}
					return a.printWebURL(line, resp)
				}
			}
			return exit(a.request("cli:web", "web.start", protocol.WebStartParams{Listen: listen, Policy: policy}, onOK))
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "serve on `ADDR` (host:port)")
	cmd.Flags().StringVar(&policy, "policy", "", "print a URL whose token is limited by the [[policy]] named `NAME`")
	cmd.AddCommand(&cobra.Command{
		Use:   "url",
		Short: "Print the running dashboard's URL with its token",
		Args:  exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.request("cli:web:url", "web.url", nil, a.printWebURL))
		},
	})
	return cmd
}

func (a *app) printWebURL(line []byte, resp protocol.Response) int {
	var r protocol.WebStarted
	if err := protocol.Unmarshal(resp.Result, &r); err != nil || r.URL == "" {
		return a.fail(resp.ID, protocol.Errorf(protocol.CodeInternal, "unreadable web result %s", line))
	}
	fmt.Fprintln(a.stdout, r.URL)
	return 0
}
