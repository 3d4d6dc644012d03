package keeper

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// saved200 is a session file of 20 workspaces of 2 tabs of 5 panes, each
// tab a row of splits, every pane with a folder and a terminal session,
// every third with a label and an agent session: what the session hands
// the keeper at 200 panes.
func saved200() *model.Saved {
	s := &model.Saved{Version: model.SavedVersion}
	for w := uint64(1); w <= 20; w++ {
		id := protocol.WorkspaceID(w)
		cwd := "/home/someone/projects/repository-" + strconv.FormatUint(w, 10)
		sw := model.SavedWorkspace{ID: &id, IdentityCwd: cwd, PublicPaneNumbers: map[string]uint64{}, NextPublicPaneNumber: 11, NextPublicTabNumber: 3}
		for t, raw := uint64(1), uint64(0); t <= 2; t++ {
			st := model.SavedTab{Panes: map[string]model.SavedPane{}}
			for p := 0; p < 5; p++ {
				raw++
				r, key := raw, strconv.FormatUint(raw, 10)
				sw.PublicPaneNumbers[key] = r
				sp := model.SavedPane{Cwd: cwd + "/internal/some/package", CreatedCwd: cwd,
					Process: &model.SavedProcess{Pid: 100000 + int(w*100+r), Start: "0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5:123456789"}}
				if r%3 == 0 {
					label := "editor " + key
					sp.Label = &label
					sp.AgentSession = &protocol.AgentSessionInfo{Source: "herdr:claude", Agent: "claude", Kind: "id", Value: "5f0c7a52-0d3b-4c1e-9a6f-" + key}
				}
				st.Panes[key] = sp
				leaf := model.SavedNode{Pane: &r}
				if p == 0 {
					st.Layout = leaf
				} else {
					st.Layout = model.SavedNode{Split: &model.SavedSplit{Direction: "Horizontal", Ratio: 0.5, First: st.Layout, Second: leaf}}
				}
			}
			sw.PublicTabNumbers = append(sw.PublicTabNumbers, t)
			sw.Tabs = append(sw.Tabs, st)
		}
		s.Workspaces = append(s.Workspaces, sw)
	}
	return s
}

// BenchmarkKeeperSave200Panes measures the keeper's part of a save of a
// 200-pane session: marshalling the topology on its Receive, then what its
// writer goroutine does (indent, write, fsync the file and its folder,
// rename).
func BenchmarkKeeperSave200Panes(b *testing.B) {
	saved := saved200()
	compact, err := encodeSession(saved)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("marshal-in-keeper", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeSession(saved); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write-and-fsync", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "session.json")
		b.SetBytes(int64(len(indentSession(compact))))
		for b.Loop() {
			if err := WriteSessionFile(path, indentSession(compact)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
