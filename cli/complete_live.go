package cli

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// Shell completion of the arguments and flags that name a workspace, tab,
// pane, agent or plugin asks the running server for the live ids. A tab
// press must never hang the shell: the dial and the whole exchange are
// bounded, and any failure (no server, another protocol, a slow server)
// completes nothing rather than printing an error.

// completeDialTimeout bounds connecting to the server for a completion;
// completeDeadline bounds the whole exchange after that.
const (
	completeDialTimeout = 300 * time.Millisecond
	completeDeadline    = time.Second
)

// liveKind is what a completed word names.
type liveKind int

const (
	liveNone liveKind = iota
	liveWorkspace
	liveTab
	livePane
	liveAgent
	livePlugin
)

// flagKinds maps the flags that name a live object to its kind.
var flagKinds = map[string]liveKind{
	"workspace":   liveWorkspace,
	"tab":         liveTab,
	"pane":        livePane,
	"source-pane": livePane,
	"target-pane": livePane,
	"plugin":      livePlugin,
}

// addLiveCompletion walks the tree under root and gives every argument and
// flag that names a live object a completion that asks the server. The
// positional kinds come from each command's Use line, so a new command
// written as "verb <pane>" completes pane ids without more code.
func (a *app) addLiveCompletion(root *cobra.Command) {
	var walk func(c *cobra.Command, noun string)
	walk = func(c *cobra.Command, noun string) {
		if c.ValidArgsFunction == nil {
			if kinds, variadic := argKinds(noun, c.Use); len(kinds) > 0 {
				c.ValidArgsFunction = a.completeArgs(kinds, variadic)
			}
		}
		for name, kind := range flagKinds {
			if c.LocalNonPersistentFlags().Lookup(name) == nil {
				continue
			}
			if _, ok := c.GetFlagCompletionFunc(name); ok {
				continue
			}
			_ = c.RegisterFlagCompletionFunc(name, a.completeFlag(kind))
		}
		for _, sub := range c.Commands() {
			n := noun
			if c == root {
				n = sub.Name()
			}
			walk(sub, n)
		}
	}
	walk(root, "")
}

// argKinds reads the positional placeholders of a Use line ("read <pane>",
// "invoke [<plugin>] <action_id> [--plugin ID]", "move-block
// <workspace>...") up to its first option, and tells what each names;
// variadic is true when the last one repeats.
func argKinds(noun, use string) (kinds []liveKind, variadic bool) {
	words := strings.Fields(use)
	if len(words) < 2 {
		return nil, false
	}
	named := false
	for _, w := range words[1:] {
		if w == "|" || strings.Contains(w, "--") {
			break
		}
		variadic = strings.HasSuffix(strings.TrimRight(w, "])"), "...")
		name := strings.ToLower(strings.Trim(w, "[]()<>."))
		name, _, _ = strings.Cut(name, "|")
		name = strings.Trim(name, "<>")
		kind := placeholderKind(noun, name)
		named = named || kind != liveNone
		kinds = append(kinds, kind)
	}
	if !named {
		return nil, false
	}
	return kinds, variadic
}

// placeholderKind tells what a placeholder names in a command of noun.
func placeholderKind(noun, name string) liveKind {
	switch name {
	case "pane", "pane_id":
		return livePane
	case "workspace":
		return liveWorkspace
	case "tab":
		return liveTab
	case "plugin", "plugin_id":
		return livePlugin
	case "id":
		if noun == "plugin" {
			return livePlugin
		}
	case "target":
		switch noun {
		case "agent", "task":
			return liveAgent // an agent's name or its pane id
		case "terminal":
			return livePane // a pane id is one of the forms it takes
		}
	}
	return liveNone
}

// completeArgs completes the positional argument len(args) with kinds.
func (a *app) completeArgs(kinds []liveKind, variadic bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		i := len(args)
		if i >= len(kinds) {
			if !variadic {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			i = len(kinds) - 1
		}
		return a.liveCompletions(kinds[i], toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeFlag completes a flag's value with kind.
func (a *app) completeFlag(kind liveKind) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return a.liveCompletions(kind, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// liveCompletions asks the server for the ids of kind that start with
// prefix, each with a short description ("w1:p2\tmy-tab"). Nothing when
// no server answers in time.
func (a *app) liveCompletions(kind liveKind, prefix string) []cobra.Completion {
	if kind == liveNone || a.usingMachine() {
		return nil // a machine is an ssh round trip away: too slow for a tab press
	}
	sock, err := a.socket()
	if err != nil {
		return nil
	}
	conn, err := protocol.Dial(sock, completeDialTimeout)
	if err != nil {
		return nil
	}
	c := protocol.NewClient(conn)
	defer c.Close()
	_ = conn.SetDeadline(time.Now().Add(completeDeadline))
	var pong protocol.Pong
	if c.Call("ping", nil, &pong) != nil || pong.Protocol != protocol.ProtocolVersion {
		return nil
	}
	var out []cobra.Completion
	add := func(id, desc string) {
		if id == "" || !strings.HasPrefix(id, prefix) {
			return
		}
		if desc = protocol.Printable(desc); desc != "" {
			out = append(out, cobra.CompletionWithDesc(id, desc))
			return
		}
		out = append(out, id)
	}
	switch kind {
	case liveWorkspace:
		var r protocol.WorkspaceList
		if c.Call("workspace.list", nil, &r) == nil {
			for _, w := range r.Workspaces {
				add(w.WorkspaceID, w.Label)
			}
		}
	case liveTab:
		var r protocol.TabList
		if c.Call("tab.list", protocol.TabListParams{}, &r) == nil {
			for _, t := range r.Tabs {
				add(t.TabID, t.Label)
			}
		}
	case livePane:
		var r protocol.PaneList
		if c.Call("pane.list", protocol.PaneListParams{}, &r) == nil {
			for _, p := range r.Panes {
				add(p.PaneID, p.TabID)
			}
		}
	case liveAgent:
		var r protocol.AgentList
		if c.Call("agent.list", nil, &r) == nil {
			for _, ag := range r.Agents {
				if ag.Name != nil {
					add(*ag.Name, ag.PaneID)
				}
				desc := deref(ag.DisplayAgent)
				if desc == "" {
					desc = deref(ag.Agent)
				}
				add(ag.PaneID, desc)
			}
		}
	case livePlugin:
		var r protocol.PluginList
		if c.Call("plugin.list", protocol.PluginListParams{}, &r) == nil {
			for _, p := range r.Plugins {
				add(p.PluginID, p.Name)
			}
		}
	}
	return out
}
