package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// pipelineDepth is how many requests the pipelined benchmarks write ahead
// (issue 19's row "pipelined pane.list, 500 in flight").
const pipelineDepth = 500

// benchPipelined writes pipelineDepth requests of method on one connection
// in one write per iteration, without waiting, then reads every answer; it
// reports requests per second. The first round checks each answer carries
// its request's id, in order, and no error.
func benchPipelined(b *testing.B, method string, panes int) {
	sock := startServer(b)
	setup := dial(b, sock)
	for i := 0; i < panes; i++ {
		if err := setup.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
			b.Fatalf("workspace %d: %v", i, err)
		}
	}
	c := dial(b, sock)
	var batch []byte
	for i := 0; i < pipelineDepth; i++ {
		batch = append(batch, `{"id":"`...)
		batch = strconv.AppendInt(batch, int64(i), 10)
		batch = append(batch, `","method":"`+method+`","params":{}}`+"\n"...)
	}
	r := bufio.NewReaderSize(c.Conn(), 64<<10)
	written := make(chan error, 1)
	round := func(check bool) {
		go func() { _, err := c.Conn().Write(batch); written <- err }()
		for i := 0; i < pipelineDepth; i++ {
			line, err := r.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				var rest []byte
				rest, err = r.ReadBytes('\n')
				line = append(bytes.Clone(line), rest...)
			}
			if err != nil {
				b.Fatalf("answer %d: %v", i, err)
			}
			if check {
				var resp protocol.Response
				if err := json.Unmarshal(line, &resp); err != nil || resp.Error != nil || resp.ID != strconv.Itoa(i) {
					b.Fatalf("answer %d: %s", i, line)
				}
			}
		}
		if err := <-written; err != nil {
			b.Fatal(err)
		}
	}
	round(true)
	start := time.Now()
	for b.Loop() {
		round(false)
	}
	b.ReportMetric(float64(b.N*pipelineDepth)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkPaneList_Pipelined500: 500 pane.list requests in flight on one
// connection, one pane; its tmux twin is the "pipelined" row of
// tests/bench/gaps (list-panes -a through one control-mode client).
func BenchmarkPaneList_Pipelined500(b *testing.B) { benchPipelined(b, "pane.list", 1) }

// BenchmarkPing_Pipelined500: the same with ping, which the connection
// answers itself: the gateway's share of the pane.list figure.
func BenchmarkPing_Pipelined500(b *testing.B) { benchPipelined(b, "ping", 0) }
