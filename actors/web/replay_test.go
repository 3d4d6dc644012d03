package web

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

func castOf(w, h int, events ...string) string {
	return fmt.Sprintf(`{"version":2,"width":%d,"height":%d}`, w, h) + "\n" + strings.Join(events, "\n")
}

// A cast declaring 4096×4096 used to cost 350 MB of emulator a replay;
// now a replay's size is bounded, and the refusal says so.
func TestParseReplay_RefusesHugeScreens(t *testing.T) {
	for name, cast := range map[string]string{
		"header": castOf(4096, 4096, `[0.1, "o", "hi"]`),
		"wide":   castOf(maxReplayCols+1, 24),
		"tall":   castOf(80, maxReplayRows+1),
		"resize": castOf(80, 24, `[0.1, "o", "hi"]`, `[0.2, "r", "4096x4096"]`),
	} {
		_, _, err := parseReplay(cast)
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Code != protocol.CodeInvalidParams || !strings.Contains(err.Error(), "larger than a replay's 1000x500") {
			t.Errorf("%s: %v, want invalid_params saying the size is larger than a replay's", name, err)
		}
	}
	h, evs, err := parseReplay(castOf(maxReplayCols, maxReplayRows, `[0.1, "o", "hi"]`, `[0.2, "r", "80x24"]`))
	if err != nil || h.Width != maxReplayCols || len(evs) != 2 {
		t.Fatalf("the largest replay: %+v %d %v", h, len(evs), err)
	}
}

// replayParent spawns a replayer, takes its frames as the browser does,
// and reports when the replayer stops.
type replayParent struct {
	cast       string
	stopped    chan struct{}
	done       bool // replayDone came
	terminated bool // the replayer stopped
	t          *testing.T
}

func (p *replayParent) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		h, evs, err := parseReplay(p.cast)
		if err != nil {
			p.t.Error(err)
			return
		}
		ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return &replayer{head: h, events: evs} }))
	case *kit.Frames:
		ctx.Send(msg.From, &kit.FramesWritten{Sub: ctx.Self()})
	case *replayDone:
		p.done = true
		if p.terminated {
			close(p.stopped)
		}
	case *actor.Terminated:
		// A system message: it may overtake the replayDone sent before
		// the replayer stopped, so either order counts.
		p.terminated = true
		if p.done {
			close(p.stopped)
		}
	}
}

// A replay that reached its end, its last frame written, stops: its
// emulator and recording go with it, not when the page leaves.
func TestReplayer_StopsAtTheEnd(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	defer system.Shutdown()
	for name, cast := range map[string]string{
		"events": castOf(80, 24, `[0.01, "o", "hello"]`, `[0.05, "r", "100x30"]`, `[0.1, "o", " world"]`),
		"empty":  castOf(80, 24),
	} {
		p := &replayParent{cast: cast, stopped: make(chan struct{}), t: t}
		system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return p }))
		select {
		case <-p.stopped:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the replayer still runs after its end, or never said it was done", name)
		}
	}
}
