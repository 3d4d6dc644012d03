package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	. "github.com/herdr-go/herdr/tests/harness"
)

// The dashboard's task board (issue 32). taskPageServer plays a server
// that cannot run here, an upstream Herdr without the task board, for the
// page's hiding; everything else is tested against the real server.
type taskPageServer struct {
	mu    sync.Mutex
	tasks []map[string]any // nil: task.list is an unknown method
	acts  map[string][]map[string]any
	calls []string
	push  chan []byte
}

func (f *taskPageServer) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c == method {
			n++
		}
	}
	return n
}

func (f *taskPageServer) answer(method string, params map[string]any) (any, map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, method)
	switch method {
	case "session.snapshot":
		return map[string]any{"type": "session_snapshot", "snapshot": map[string]any{"version": "0.9.0", "protocol": 22,
			"workspaces": []any{}, "tabs": []any{}, "panes": []any{}, "layouts": []any{}, "agents": []any{}}}, nil
	case "machine.list":
		return nil, map[string]string{"code": "unknown_method", "message": "unknown method: machine.list"}
	case "task.list":
		if f.tasks == nil {
			return nil, map[string]string{"code": "unknown_method", "message": "unknown method: task.list"}
		}
		return map[string]any{"type": "task_list", "tasks": f.tasks}, nil
	case "task.get":
		id, _ := params["task_id"].(string)
		for _, t := range f.tasks {
			if t["id"] == id {
				full := map[string]any{}
				for k, v := range t {
					full[k] = v
				}
				full["activities"] = f.acts[id]
				return map[string]any{"type": "task_info", "task": full}, nil
			}
		}
		return nil, map[string]string{"code": "task_not_found", "message": "no task " + id}
	}
	return map[string]any{"type": "ok"}, nil
}

func (f *taskPageServer) serve(t *testing.T) string {
	static := filepath.Join(ModuleRoot, "actors", "web", "static")
	f.push = make(chan []byte, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/", "/app.js", "/fleet.js", "/tasks.js", "/app.css":
			name := strings.TrimPrefix(r.URL.Path, "/")
			if name == "" {
				name = "index.html"
			}
			http.ServeFile(w, r, filepath.Join(static, name))
		case "/ws":
			ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"herdr"}})
			if err != nil {
				return
			}
			f.socket(r.Context(), ws)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/?token=" + strings.Repeat("cd", 32)
}

func (f *taskPageServer) socket(ctx context.Context, ws *websocket.Conn) {
	defer ws.CloseNow()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan []byte, 16)
	go func() {
		defer cancel()
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			lines <- data
		}
	}()
	for {
		var out []byte
		select {
		case <-ctx.Done():
			return
		case ev := <-f.push:
			out = ev
		case data := <-lines:
			var req struct {
				ID     string         `json:"id"`
				Method string         `json:"method"`
				Params map[string]any `json:"params"`
			}
			if json.Unmarshal(data, &req) != nil {
				return
			}
			result, failure := f.answer(req.Method, req.Params)
			if failure != nil {
				out, _ = json.Marshal(map[string]any{"id": req.ID, "error": failure})
			} else {
				out, _ = json.Marshal(map[string]any{"id": req.ID, "result": result})
			}
		}
		if ws.Write(ctx, websocket.MessageText, out) != nil {
			return
		}
	}
}

// pageList evaluates a JS expression that yields a list of strings.
func pageList(t *testing.T, ctx context.Context, expr string) []string {
	t.Helper()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWebTasks_HiddenOnAnOlderServer: a server without task.list shows no
// Tasks button and no board, and no error.
func TestWebTasks_HiddenOnAnOlderServer(t *testing.T) {
	exe := Chromium(t)
	f := &taskPageServer{}
	url := f.serve(t)
	ctx := Browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#conn[data-state="open"]`))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "the page asking task.list", func() bool { return f.count("task.list") > 0 })
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`[$("taskstoggle").hidden, $("tasks").hidden, $("msg").classList.contains("err")]`))
	if err != nil || len(hidden) != 3 || !hidden[0] || !hidden[1] || hidden[2] {
		t.Fatalf("button hidden, board hidden, error shown: %v (%v)", hidden, err)
	}
}

// TestWebTasks_RealServer: the page against a real server: tasks the CLI
// created are on the board in their status columns; a title full of
// markup is drawn as text; the assignee shows on the row; a click shows
// the task's activity newest first; a report moves the task to its new
// column on the page's own subscription, and shows first in its activity.
func TestWebTasks_RealServer(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "webtasks")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	evil := `<img src=x onerror="document.title='pwned'">`
	AgentCLI(t, s, "task", "create", "--title", "Parse config")
	AgentCLI(t, s, "task", "create", "--title", evil)
	AgentCLI(t, s, "task", "create", "--title", `<b>bold</b> retry`, "--backlog")
	pane := AgentWorkspace(t, s)
	s.WaitPrompt(t, pane)
	AgentCLI(t, s, "agent", "start", "impl", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	AgentCLI(t, s, "task", "attach", "task-2", "impl")
	AgentCLI(t, s, "task", "report", "task-2", "running", "--message", "tests <b>pass</b>")

	ctx := Browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#taskstoggle`)), chromedp.Click(chromedp.CSS(`#taskstoggle`)),
		chromedp.WaitVisible(chromedp.CSS(`#board .col[data-status="ready"] li.task[data-task="task-1"]`))); err != nil {
		t.Fatalf("the board never showed task-1 ready: %v", err)
	}
	cols := pageList(t, ctx, `[...document.querySelectorAll("#board .col")].map((c) => c.dataset.status + ":" + [...c.querySelectorAll("li.task")].map((l) => l.dataset.task).join(","))`)
	if want := "backlog:task-3 ready:task-1 running:task-2 blocked: review: done: failed: cancelled:"; strings.Join(cols, " ") != want {
		t.Fatalf("columns %q, want %q", cols, want)
	}
	if row := PageText(t, ctx, `li.task[data-task="task-2"]`); !strings.Contains(row, evil) || !strings.Contains(row, "@impl") {
		t.Errorf("task-2's row %q: want its title as text and its assignee", row)
	}
	if row := PageText(t, ctx, `li.task[data-task="task-3"]`); !strings.Contains(row, "<b>bold</b> retry") {
		t.Errorf("task-3's row %q: want its title as text", row)
	}
	if err := chromedp.Do(ctx, Tap(`li.task[data-task="task-2"]`),
		chromedp.WaitVisible(chromedp.CSS(`#activity[data-task="task-2"] ol li`))); err != nil {
		t.Fatal(err)
	}
	if kinds := pageList(t, ctx, `[...document.querySelectorAll("#activity ol li")].map((l) => l.dataset.kind)`); len(kinds) < 3 || kinds[0] != "status" || kinds[len(kinds)-1] != "created" {
		t.Errorf("activity kinds %q, want newest first (the report), created last", kinds)
	}
	if act := PageText(t, ctx, `#activity`); !strings.Contains(act, "tests <b>pass</b>") || !strings.Contains(act, "assignee impl ("+pane+")") {
		t.Errorf("activity %q: want the message as text and the assignee", act)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#tasks img, #tasks b").length`)); n != 0 {
		t.Errorf("task text became %d elements", n)
	}
	if title, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`)); title == "pwned" {
		t.Error("a task title ran as markup")
	}

	if err := chromedp.Do(ctx, Tap(`li.task[data-task="task-1"]`),
		chromedp.WaitVisible(chromedp.CSS(`#activity[data-task="task-1"] ol li`))); err != nil {
		t.Fatal(err)
	}
	AgentCLI(t, s, "task", "report", "task-1", "running", "--message", "parsing the first file")
	WaitFor(t, "task-1 in the running column", func() bool {
		return strings.Contains(PageText(t, ctx, `#board .col[data-status="running"]`), "Parse config")
	})
	WaitFor(t, "the report first in task-1's activity", func() bool {
		return strings.Contains(PageText(t, ctx, `#activity ol li:first-child`), "parsing the first file")
	})
}
