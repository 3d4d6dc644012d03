package web

import (
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// ReplayPaneID names a replay's frames on the page.
const ReplayPaneID = "replay"

// replayParams are the params of web.replay: a pane (whose history is
// replayed) or a .cast document.
type replayParams struct {
	PaneID string  `json:"pane_id,omitempty"`
	Cast   string  `json:"cast,omitempty"`
	Speed  float64 `json:"speed,omitempty"`
}

// ReplayStarted answers web.replay.
type ReplayStarted struct {
	Cols     int     `json:"cols"`
	Rows     int     `json:"rows"`
	Events   int     `json:"events"`
	Duration float64 `json:"duration"`
}

// ResultType implements protocol.Result.
func (ReplayStarted) ResultType() string { return "web_replay_started" }

// replayDone tells the browser its replay reached the end.
type replayDone struct{ From *actor.PID }

// A replay's screen is at most maxReplayCols × maxReplayRows: its
// emulator's grid costs memory by the cell, and a cast may declare any
// size (a 4096×4096 header used to cost 350 MB a replay).
const (
	maxReplayCols = 1000
	maxReplayRows = 500
)

// parseReplay parses a cast for replay, refusing one whose header or a
// resize in it is larger than a replay's screen.
func parseReplay(cast string) (protocol.CastHeader, []protocol.CastEvent, error) {
	h, evs, err := protocol.ParseCast(strings.NewReader(cast))
	if err != nil {
		return h, nil, protocol.ParamError("cast", "%v", err)
	}
	if err := replaySize(h.Width, h.Height); err != nil {
		return h, nil, protocol.ParamError("cast", "cast header: %v", err)
	}
	for i, ev := range evs {
		if ev.Code != "r" {
			continue
		}
		if c, r, ok := protocol.CastSize(ev.Data); ok {
			if err := replaySize(c, r); err != nil {
				return h, nil, protocol.ParamError("cast", "event %d resizes: %v", i+1, err)
			}
		}
	}
	return h, evs, nil
}

func replaySize(cols, rows int) error {
	if cols > maxReplayCols || rows > maxReplayRows {
		return fmt.Errorf("size %dx%d is larger than a replay's %dx%d", cols, rows, maxReplayCols, maxReplayRows)
	}
	return nil
}

// startReplay parses a cast and starts its replay, replacing one that runs.
func (b *browser) startReplay(ctx actor.Context, cast string) *kit.Reply {
	h, evs, err := parseReplay(cast)
	if err != nil {
		return kit.Fail(err)
	}
	if b.replay != nil {
		ctx.Stop(b.replay)
	}
	b.replay = ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return &replayer{head: h, events: evs} }, kit.Guarded(nil)))
	res := ReplayStarted{Cols: h.Width, Rows: h.Height, Events: len(evs)}
	if len(evs) > 0 {
		res.Duration = evs[len(evs)-1].Time
	}
	return kit.Done(res)
}

// replayTick is the replayer's clock.
type replayTick struct{}

// Replays play at most maxIdle of any pause, in steps of replayStep.
const (
	maxIdle    = time.Second
	replayStep = time.Second / 30
)

// replayer feeds a recording through its own emulator at the recorded
// pace (pauses capped at maxIdle) and sends its parent full frames of
// the screen, at most one in flight.
type replayer struct {
	head     protocol.CastHeader
	events   []protocol.CastEvent
	next     int
	clock    float64 // the recording's time reached
	term     *emulator.Terminal
	timers   kit.Timers
	seq      uint64
	inflight bool
	stale    bool
	ended    bool
}

// Receive implements actor.Actor.
func (r *replayer) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = r.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Started:
		r.term = emulator.New(r.head.Width, r.head.Height, emulator.Options{ScrollbackLimitBytes: -1})
		r.stale = true
		r.frame(ctx)
		r.timers.After(ctx, replayStep, &replayTick{})
	case *replayTick:
		r.advance(ctx)
	case *kit.FramesWritten:
		r.inflight = false
		if r.ended && !r.stale {
			// The last frame is on the page: the emulator and the
			// recording are garbage from here.
			ctx.Stop(ctx.Self())
			return
		}
		r.frame(ctx)
	case *actor.Stopping:
		r.timers.StopAll()
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

// advance applies the events due in the next step; a pause longer than
// maxIdle is cut short.
func (r *replayer) advance(ctx actor.Context) {
	if r.next < len(r.events) && r.events[r.next].Time-r.clock > maxIdle.Seconds() {
		r.clock = r.events[r.next].Time - maxIdle.Seconds()
	}
	r.clock += replayStep.Seconds()
	for r.next < len(r.events) && r.events[r.next].Time <= r.clock {
		ev := r.events[r.next]
		r.next++
		switch ev.Code {
		case "o":
			r.term.Write([]byte(ev.Data))
		case "r":
			if c, rows, ok := protocol.CastSize(ev.Data); ok {
				r.term.Resize(c, rows)
			}
		}
		r.stale = true
	}
	r.ended = r.next >= len(r.events)
	// The end is always drawn, so the page hears replay_done even when
	// the last event changed nothing.
	r.stale = r.stale || r.ended
	r.frame(ctx)
	if !r.ended {
		r.timers.After(ctx, replayStep, &replayTick{})
	}
}

// frame sends the screen when it changed and the last frame was written.
func (r *replayer) frame(ctx actor.Context) {
	if r.inflight || !r.stale {
		return
	}
	r.stale = false
	r.seq++
	line, err := protocol.EncodeDedicated(protocol.ScreenFrameEvent, pane.ScreenFrame(r.term, ReplayPaneID, r.seq))
	if err != nil {
		return
	}
	r.inflight = true
	ctx.Send(ctx.Parent(), &kit.Frames{Lines: [][]byte{line}, From: ctx.Self()})
	if r.ended {
		ctx.Send(ctx.Parent(), &replayDone{From: ctx.Self()})
	}
}
