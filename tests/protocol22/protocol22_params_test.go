//go:build unix

package protocol22

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Protocol 22's optional params, against the real binary.

// workspaceIDs lists the session's workspaces in order.
func p22WorkspaceOrder(t *testing.T, s *Server) string {
	t.Helper()
	var ids []string
	for _, w := range OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces {
		ids = append(ids, w.WorkspaceID)
	}
	return strings.Join(ids, ",")
}

// source_workspace_id: the new workspace starts where the named (not the
// focused) workspace's focused pane is; an unknown one creates nothing.
func TestProtocol22_WorkspaceCreateSourceWorkspace(t *testing.T) {
	h := NewHome(t)
	a, b := filepath.Join(h.Dir, "alpha"), filepath.Join(h.Dir, "beta")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := h.Start(t, "src")
	s.CreateWorkspace(t, map[string]any{"cwd": a, "focus": true})
	s.CreateWorkspace(t, map[string]any{"cwd": b})
	OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.focus", map[string]any{"workspace_id": "w1"}), "workspace_info")

	got := OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", map[string]any{"source_workspace_id": "w2"}), "workspace_created")
	if cwd := got.RootPane.Cwd; cwd == nil || *cwd != b {
		t.Fatalf("created with source w2 in %v, want %s", got.RootPane.Cwd, b)
	}
	// Without it, the focused workspace's folder, as before.
	plain := OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", nil), "workspace_created")
	if cwd := plain.RootPane.Cwd; cwd == nil || *cwd != a {
		t.Fatalf("created without a source in %v, want the focused %s", plain.RootPane.Cwd, a)
	}
	before := p22WorkspaceOrder(t, s)
	Fail(t, s.Call("workspace.create", map[string]any{"source_workspace_id": "w99"}), "workspace_not_found")
	if after := p22WorkspaceOrder(t, s); after != before {
		t.Fatalf("a refused create changed the workspaces: %s → %s", before, after)
	}
	// The CLI's flag says the same.
	out, _, code := s.CLIT(t, "workspace", "create", "--source-workspace", "w2")
	if code != 0 || !strings.Contains(out, `"cwd":"`+b+`"`) {
		t.Fatalf("cli create --source-workspace w2: exit %d, %s", code, out)
	}
}

// close_group: a repository's workspace and its two worktree workspaces
// close together, from the root or from a worktree's workspace; without
// the flag a worktree's workspace closes alone.
func TestProtocol22_WorkspaceCloseGroup(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "grp")
	s.CreateWorkspace(t, map[string]any{"cwd": repo})
	s.CreateWorkspace(t, nil) // w2: not of the group
	group := func() {
		for i := 0; i < 2; i++ {
			OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1"}), "worktree_created")
		}
	}
	group()
	if got := p22WorkspaceOrder(t, s); got != "w1,w3,w4,w2" {
		t.Fatalf("group %s", got)
	}
	// Without the flag: only the worktree's own workspace.
	OK[protocol.OK](t, s.Call("workspace.close", map[string]any{"workspace_id": "w4"}), "ok")
	if got := p22WorkspaceOrder(t, s); got != "w1,w3,w2" {
		t.Fatalf("after closing w4 alone: %s", got)
	}
	// With it, from a worktree's workspace: the whole group.
	OK[protocol.OK](t, s.Call("workspace.close", map[string]any{"workspace_id": "w3", "close_group": true}), "ok")
	if got := p22WorkspaceOrder(t, s); got != "w2" {
		t.Fatalf("after closing w3's group: %s, want only w2", got)
	}

	// Again, from the repository's workspace, through the CLI.
	s.CreateWorkspace(t, map[string]any{"cwd": repo}) // w5
	for i := 0; i < 2; i++ {
		OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w5"}), "worktree_created")
	}
	if _, _, code := s.CLIT(t, "workspace", "close", "w5"); code != 1 {
		t.Fatalf("close of a group's root without --group: exit %d, want 1", code)
	}
	if got := p22WorkspaceOrder(t, s); got != "w2,w5,w6,w7" {
		t.Fatalf("a refused close changed the workspaces: %s", got)
	}
	if out, errOut, code := s.CLIT(t, "workspace", "close", "w5", "--group"); code != 0 {
		t.Fatalf("close --group: exit %d %s %s", code, out, errOut)
	}
	if got := p22WorkspaceOrder(t, s); got != "w2" {
		t.Fatalf("after closing w5's group: %s, want only w2", got)
	}
}

// trust_repository: git refuses a repository owned by another user; each
// worktree method answers repository_not_trusted naming the flag, and
// with it does its work, for that request only, writing no git config.
func TestProtocol22_WorktreeTrustRepository(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "foreign")
	GitRepo(t, repo)
	if out, err := exec.Command("chown", "-R", "65534:65534", repo).CombinedOutput(); err != nil {
		t.Skipf("cannot give a repository to another user (needs root): %v %s", err, out)
	}
	s := h.Start(t, "trust")
	s.CreateWorkspace(t, nil)
	msg := Fail(t, s.Call("worktree.list", map[string]any{"cwd": repo}), "repository_not_trusted")
	if !strings.Contains(msg, "trust_repository") {
		t.Fatalf("the refusal does not name the param: %s", msg)
	}
	checkout := filepath.Join(h.Dir, "side")
	Fail(t, s.Call("worktree.create", map[string]any{"cwd": repo, "branch": "side", "path": checkout}), "repository_not_trusted")
	if _, err := os.Stat(checkout); !os.IsNotExist(err) {
		t.Fatalf("a refused create made the checkout: %v", err)
	}

	list := OK[protocol.WorktreeList](t, s.Call("worktree.list", map[string]any{"cwd": repo, "trust_repository": true}), "worktree_list")
	if len(list.Worktrees) != 1 || list.Source.RepoRoot != repo {
		t.Fatalf("trusted list %+v", list)
	}
	made := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"cwd": repo, "branch": "side", "path": checkout, "trust_repository": true}), "worktree_created")
	Fail(t, s.Call("worktree.open", map[string]any{"cwd": repo, "branch": "side"}), "repository_not_trusted")
	opened := OK[protocol.WorktreeOpened](t, s.Call("worktree.open", map[string]any{"cwd": repo, "branch": "side", "trust_repository": true}), "worktree_opened")
	if !opened.AlreadyOpen || opened.Workspace.WorkspaceID != made.Workspace.WorkspaceID {
		t.Fatalf("open found %+v, want %s", opened, made.Workspace.WorkspaceID)
	}
	ws := made.Workspace.WorkspaceID
	Fail(t, s.Call("worktree.remove", map[string]any{"workspace_id": ws}), "repository_not_trusted")

	// The CLI: the refusal names the flag; the flag works.
	_, errOut, code := s.CLIT(t, "worktree", "list", "--cwd", repo)
	if code != 1 || !strings.Contains(errOut, "--trust-repository") {
		t.Fatalf("cli list without the flag: exit %d, %s", code, errOut)
	}
	if out, errOut, code := s.CLIT(t, "worktree", "remove", "--workspace", ws, "--trust-repository"); code != 0 {
		t.Fatalf("cli remove --trust-repository: exit %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(checkout); !os.IsNotExist(err) {
		t.Fatalf("checkout still there: %v", err)
	}
	out, errOut, code := s.CLIT(t, "worktree", "list", "--cwd", repo, "--trust-repository")
	if code != 0 || !strings.Contains(out, `"worktree_list"`) {
		t.Fatalf("cli list --trust-repository: exit %d %s %s", code, out, errOut)
	}
	for _, f := range []string{filepath.Join(h.Dir, "h", ".gitconfig"), filepath.Join(h.Dir, "h", ".config", "git", "config")} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Fatalf("%s written: %v", f, err)
		}
	}
}

// readGraphicsLine reads the watcher's lines until a screen.graphics one
// with n layers.
func readGraphicsLine(t *testing.T, c *protocol.Client, n int) protocol.GraphicsUpdate {
	t.Helper()
	for {
		line, err := c.ReadLine()
		if err != nil {
			t.Fatalf("watcher: %v", err)
		}
		ValidateIfResponse(t, line) // screen.subscribe's answer
		var push struct {
			Event string                  `json:"event"`
			Data  protocol.GraphicsUpdate `json:"data"`
		}
		if json.Unmarshal(line, &push) == nil && push.Event == protocol.GraphicsEvent && len(push.Data.Layers) == n {
			return push.Data
		}
	}
}

// Named layers: each set replaces its own layer only, watchers get the
// layers in (z_index, layer_id) order with only the changed image's data,
// clear with layer_id clears that layer and without it the primary one
// (Herdr's default layer); ids and the per-pane bound answer Herdr's codes.
func TestProtocol22_GraphicsLayers(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	watch := s.Dial(t)
	_ = watch.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	sub, _ := json.Marshal(map[string]any{"id": "w", "method": "screen.subscribe", "params": map[string]any{"pane_ids": []string{pane}, "graphics": true}})
	if err := watch.WriteLine(sub); err != nil {
		t.Fatal(err)
	}
	rgb := func(layer string, z int, px ...byte) protocol.Response {
		p := map[string]any{"pane_id": pane, "format": "rgb", "image_width": 1, "image_height": 1, "data_base64": base64.StdEncoding.EncodeToString(px)}
		if layer != "" {
			p["layer_id"], p["z_index"] = layer, z
		}
		return s.Call("pane.graphics.set", p)
	}
	OK[protocol.OK](t, rgb("", 0, 1, 1, 1), "ok")
	OK[protocol.OK](t, rgb("top", 5, 2, 2, 2), "ok")
	OK[protocol.OK](t, rgb("bottom", -2, 3, 3, 3), "ok")
	order := func(u protocol.GraphicsUpdate) string {
		var ids []string
		for _, l := range u.Layers {
			ids = append(ids, l.LayerID)
		}
		return strings.Join(ids, ",")
	}
	if u := readGraphicsLine(t, watch, 3); order(u) != "bottom,primary,top" {
		t.Fatalf("streamed order %s, want bottom,primary,top", order(u))
	}
	// A new image on "top" replaces that layer alone: only its data travels.
	OK[protocol.OK](t, rgb("top", 5, 9, 9, 9), "ok")
	u := readGraphicsLine(t, watch, 3)
	for _, l := range u.Layers {
		raw, _ := base64.StdEncoding.DecodeString(l.DataBase64)
		if l.LayerID == "top" && !bytes.Equal(raw, []byte{9, 9, 9}) || l.LayerID != "top" && l.DataBase64 != "" {
			t.Fatalf("after setting top: %s carries %v", l.LayerID, raw)
		}
	}
	// z_index moves a layer in the order.
	OK[protocol.OK](t, rgb("top", -9, 9, 9, 9), "ok")
	if got := LayerIDs(GraphicsInfo(t, s, pane)); got != "top,bottom,primary" {
		t.Fatalf("after z_index -9: %s", got)
	}

	OK[protocol.OK](t, s.Call("pane.graphics.clear", map[string]any{"pane_id": pane, "layer_id": "top"}), "ok")
	if got := LayerIDs(GraphicsInfo(t, s, pane)); got != "bottom,primary" {
		t.Fatalf("after clearing top: %s", got)
	}
	OK[protocol.OK](t, s.Call("pane.graphics.clear", map[string]any{"pane_id": pane}), "ok")
	if got := LayerIDs(GraphicsInfo(t, s, pane)); got != "bottom" {
		t.Fatalf("after clearing without layer_id: %s, want bottom", got)
	}

	for _, bad := range []string{"", "a b", strings.Repeat("x", 65), "ünï"} {
		Fail(t, s.Call("pane.graphics.set", map[string]any{"pane_id": pane, "layer_id": bad, "format": "rgb", "image_width": 1, "image_height": 1, "data_base64": "AQEB"}), "invalid_layer_id")
		Fail(t, s.Call("pane.graphics.clear", map[string]any{"pane_id": pane, "layer_id": bad}), "invalid_layer_id")
	}
	OK[protocol.OK](t, rgb("plugin:cam-1.x_y", 0, 1, 1, 1), "ok")
	for i := len(GraphicsInfo(t, s, pane).Layers); i < protocol.GraphicsMaxLayers; i++ {
		OK[protocol.OK](t, rgb("fill"+strconv.Itoa(i), 0, 1, 1, 1), "ok")
	}
	Fail(t, rgb("one-too-many", 0, 1, 1, 1), "layer_limit")
}

// Direct kitty file frames: pane.graphics.info offers them ("direct-kitty",
// a private folder) once a local client whose terminal speaks kitty
// graphics is in front; a stream's file frame lands on its layer and is
// acknowledged with pane_graphics_frame_ack; a file outside the folder
// is refused and ends the stream.
func TestProtocol22_GraphicsFileFrames(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	if info := GraphicsInfo(t, s, pane); info.FileFrameTransport != nil || info.FileFrameDirectory != nil {
		t.Fatalf("file frames offered with no kitty client in front: %+v", info)
	}
	client := s.Dial(t)
	OK[protocol.OK](t, DoOn(t, client, "rs", "client.resize", map[string]any{"cols": 100, "rows": 30, "kitty_graphics_local": true}), "ok")
	info := GraphicsInfo(t, s, pane)
	if info.FileFrameTransport == nil || *info.FileFrameTransport != "direct-kitty" || info.FileFrameDirectory == nil ||
		strings.Join(info.FileFrameFormats, ",") != "rgba,bgra" || info.MaxLayersPerPane != 16 {
		t.Fatalf("info with a local kitty client: %+v", info)
	}
	dir := *info.FileFrameDirectory
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("file frame folder %s: %v %v", dir, st, err)
	}
	rev := info.Revision

	c := OpenStream(t, s, map[string]any{"pane_id": pane})
	frame := filepath.Join(dir, "frame-1")
	if err := os.WriteFile(frame, []byte{1, 2, 3, 255, 4, 5, 6, 255}, 0o600); err != nil {
		t.Fatal(err)
	}
	WriteFrame(t, c, map[string]any{"format": "bgra", "image_width": 2, "image_height": 1, "file": map[string]any{"path": frame}, "sequence": 7, "revision": 3,
		"placement": map[string]any{"viewport_col": 1, "viewport_row": 1, "grid_cols": 2, "grid_rows": 1}}, nil)
	line, err := c.ReadLine()
	if err != nil {
		t.Fatal(err)
	}
	resp := DecodeResponse(t, line)
	ack := OK[protocol.PaneGraphicsFrameAck](t, resp, "pane_graphics_frame_ack")
	if ack.Sequence != 7 || ack.Revision != 3 || resp.ID != "gs:file:7" {
		t.Fatalf("ack %s %+v, want id gs:file:7", resp.ID, ack)
	}
	after := GraphicsInfo(t, s, pane)
	if len(after.Layers) != 1 || after.Layers[0].Format != "rgba" || after.Layers[0].ImageWidth != 2 || after.Layers[0].Empty || after.Revision <= rev {
		t.Fatalf("after the file frame: %+v", after)
	}
	// The file is the producer's again: changing it changes nothing drawn.
	if err := os.WriteFile(frame, make([]byte, 8), 0o600); err != nil {
		t.Fatal(err)
	}

	outside := filepath.Join(t.TempDir(), "frame")
	if err := os.WriteFile(outside, make([]byte, 8), 0o600); err != nil {
		t.Fatal(err)
	}
	WriteFrame(t, c, map[string]any{"format": "rgba", "image_width": 2, "image_height": 1, "file": map[string]any{"path": outside}, "sequence": 8}, nil)
	if line, err = c.ReadLine(); err != nil {
		t.Fatal(err)
	}
	if resp = DecodeResponse(t, line); resp.ID != "gs:file:8" {
		t.Errorf("refusal id %q, want gs:file:8", resp.ID)
	}
	Fail(t, resp, "invalid_frame_file")
	if _, err := c.ReadLine(); err == nil {
		t.Errorf("the stream stayed open after a refused file frame")
	}
	WaitFor(t, "the stream's layer gone", func() bool { return len(GraphicsInfo(t, s, pane).Layers) == 0 })
}
