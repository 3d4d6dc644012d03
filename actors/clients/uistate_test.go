package clients

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// The sidebar state is the clients actor's: it starts as the restored
// file held, a set changes the fields it names (all or none: a width
// outside [ui]'s bounds changes nothing), each change is handed to the
// keeper before the answer, sharing nothing with the actor's state, and a
// live handoff's export is the state now.
func TestUIState_KeptHereAndHandedToTheKeeper(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	told := make(chan *keeper.UI, 10)
	stub := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if u, ok := ctx.Message().(*keeper.UI); ok {
			told <- u
		}
	}))
	width := 28
	pid := system.Root.Spawn(Props(Options{Config: config.Default(), UI: model.UIState{CollapsedSpaceKeys: []string{"/kept/.git"}, Width: &width}}))
	system.Root.Send(pid, &Peers{Keeper: stub})
	call := func(method, params string) *kit.Reply {
		t.Helper()
		prm, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatal(err)
		}
		res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "t", Method: method, Params: prm}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	asJSON := func(v any) string { b, _ := json.Marshal(v); return string(b) }

	if got := asJSON(call("client.ui_state.get", `{}`).Result); got != `{"collapsed_space_keys":["/kept/.git"],"sidebar_section_split":null,"sidebar_width":28}` {
		t.Fatalf("restored state answered %s", got)
	}
	cfg := config.Default()
	r := call("client.ui_state.set", `{"collapsed_space_keys":[],"sidebar_width":`+asJSON(cfg.UI.SidebarMaxWidth+1)+`}`)
	if r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeInvalidParams {
		t.Fatalf("a width past [ui] sidebar_max_width: %+v, want invalid_params", r)
	}
	if got := asJSON(call("client.ui_state.get", `{}`).Result); got != `{"collapsed_space_keys":["/kept/.git"],"sidebar_section_split":null,"sidebar_width":28}` {
		t.Fatalf("a refused set changed the state: %s", got)
	}
	select {
	case u := <-told:
		t.Fatalf("a refused set told the keeper %+v", u.State)
	default:
	}

	set := call("client.ui_state.set", `{"collapsed_space_keys":["/a/.git","/b/.git"],"sidebar_section_split":0.6}`)
	if want := `{"collapsed_space_keys":["/a/.git","/b/.git"],"sidebar_section_split":0.6,"sidebar_width":28}`; set.Err != nil || asJSON(set.Result) != want {
		t.Fatalf("set answered %+v, want %s", set, want)
	}
	var u *keeper.UI
	select {
	case u = <-told:
	case <-time.After(5 * time.Second):
		t.Fatal("the keeper was not told of the change")
	}
	if u.State.SectionSplit == nil || *u.State.SectionSplit != 0.6 || len(u.State.CollapsedSpaceKeys) != 2 || u.State.Width == nil || *u.State.Width != 28 {
		t.Fatalf("the keeper got %+v", u.State)
	}
	u.State.CollapsedSpaceKeys[0], *u.State.Width = "changed by the keeper", 99
	res, err := system.Root.RequestFuture(pid, &ExportUI{}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	exported := res.(model.UIState)
	if exported.CollapsedSpaceKeys[0] != "/a/.git" || *exported.Width != 28 {
		t.Fatalf("the state the keeper got is shared with the actor's: export %+v", exported)
	}
}
