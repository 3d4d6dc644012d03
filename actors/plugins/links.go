package plugins

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	plug "github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// linkActivate runs the first [[link_handlers]] entry whose pattern
// matches the link pane.link.activate found (the context's clicked_url):
// plugins in id order, handlers in manifest order, enabled plugins only,
// and only handlers that, with their action, run on this platform. The
// action gets the URL and the handler's id in its context. No match
// answers handled=false with the URL, for the caller to open.
func (p *Plugins) linkActivate(ctx actor.Context, m *Invoke) *kit.Reply {
	url := ""
	if m.Context.ClickedURL != nil {
		url = *m.Context.ClickedURL
	}
	order := make([]*protocol.InstalledPluginInfo, 0, len(p.reg.Plugins))
	for i := range p.reg.Plugins {
		order = append(order, &p.reg.Plugins[i])
	}
	slices.SortFunc(order, func(a, b *protocol.InstalledPluginInfo) int { return strings.Compare(a.PluginID, b.PluginID) })
	for _, pl := range order {
		if !pl.Enabled {
			continue
		}
		for _, h := range pl.LinkHandlers {
			i := slices.IndexFunc(pl.Actions, func(a protocol.PluginManifestAction) bool { return a.ID == h.Action })
			if i < 0 || !plug.RunsHere(pl.Platforms, h.Platforms) || !plug.RunsHere(pl.Platforms, pl.Actions[i].Platforms) {
				continue
			}
			if re, err := regexp.Compile(h.Pattern); err != nil || !re.MatchString(url) {
				continue
			}
			a := &pl.Actions[i]
			c := m.Context
			c.LinkHandlerID = protocol.Ptr(h.ID)
			ctxJSON, _ := json.Marshal(c)
			actionID := pl.PluginID + "." + a.ID
			if _, err := p.launch(ctx, pl, a.Command, &actionID, "", &c, string(ctxJSON)); err != nil {
				return kit.Fail(err)
			}
			return kit.Done(protocol.PaneLinkActivated{Handled: true, URL: protocol.Ptr(url)})
		}
	}
	return kit.Done(protocol.PaneLinkActivated{URL: protocol.Ptr(url)})
}
