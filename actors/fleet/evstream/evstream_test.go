package evstream

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/fleet/internal/natstest"
)

// collector is a deliver func that only sends, as an actor's would.
func collector() (chan Delivery, func(Delivery)) {
	ch := make(chan Delivery, 1024)
	return ch, func(d Delivery) { ch <- d }
}

// next waits for one delivery (the bound only keeps a broken test from
// hanging; it decides nothing when things work).
func next(t *testing.T, ch chan Delivery) Delivery {
	t.Helper()
	for {
		select {
		case d := <-ch:
			if d.Err != nil { // for the log; the subscription goes on
				t.Log(d.Err)
				continue
			}
			return d
		case <-time.After(30 * time.Second):
			t.Fatal("no delivery in 30s")
		}
	}
}

// wantEvent reads one delivery and checks it is the event at seq.
func wantEvent(t *testing.T, ch chan Delivery, seq uint64, member string) *Event {
	t.Helper()
	d := next(t, ch)
	if d.Event == nil {
		t.Fatalf("want event %d, got %+v", seq, d.Lost)
	}
	if d.Event.Seq != seq || d.Event.Member != member {
		t.Fatalf("want event %d of %s, got %d of %s", seq, member, d.Event.Seq, d.Event.Member)
	}
	return d.Event
}

// setup starts a hub and makes the stream.
func setup(t *testing.T, cfg Config) (*natstest.Hub, jetstream.JetStream) {
	t.Helper()
	h := natstest.Start(t, t.TempDir(), 0)
	_, js := natstest.Connect(t, h.URL())
	if _, err := Ensure(context.Background(), js, cfg); err != nil {
		t.Fatal(err)
	}
	return h, js
}

func publishN(t *testing.T, p *Publisher, n int, tag string) {
	t.Helper()
	for i := 0; i < n; i++ {
		if _, err := p.Publish(context.Background(), "pane_created", []byte(fmt.Sprintf(`{"event":"pane_created","n":"%s-%d"}`, tag, i))); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPublishAndSubscribeInOrder(t *testing.T) {
	ctx := context.Background()
	_, js := setup(t, Config{})
	a, _ := NewPublisher(js, Config{}, "alpha")
	b, _ := NewPublisher(js, Config{}, "beta")
	for i := 0; i < 3; i++ {
		publishN(t, a, 1, "a")
		publishN(t, b, 1, "b")
	}
	ch, deliver := collector()
	sub, err := Subscribe(ctx, js, Config{}, Options{From: 1}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	for i := uint64(1); i <= 6; i++ {
		m := "alpha"
		if i%2 == 0 {
			m = "beta"
		}
		e := wantEvent(t, ch, i, m)
		if e.Kind != "pane_created" || !strings.Contains(string(e.Data), `"event":"pane_created"`) || e.Time.IsZero() {
			t.Fatalf("event %d: %+v", i, e)
		}
	}

	// Only beta's, from the start; then a new one of each: only beta's.
	ch2, deliver2 := collector()
	sub2, err := Subscribe(ctx, js, Config{}, Options{From: 1, Members: []string{"beta"}}, deliver2)
	if err != nil {
		t.Fatal(err)
	}
	defer sub2.Stop()
	publishN(t, a, 1, "a")
	publishN(t, b, 1, "b")
	for _, seq := range []uint64{2, 4, 6, 8} {
		wantEvent(t, ch2, seq, "beta")
	}
	// From 0: only what comes after.
	ch3, deliver3 := collector()
	sub3, err := Subscribe(ctx, js, Config{}, Options{}, deliver3)
	if err != nil {
		t.Fatal(err)
	}
	defer sub3.Stop()
	publishN(t, a, 1, "a")
	wantEvent(t, ch3, 9, "alpha")
}

// A subscriber stopped (its member disconnected) and started again from
// the sequence after the last it got receives exactly what it missed.
func TestResumeFromSequenceGetsWhatWasMissed(t *testing.T) {
	ctx := context.Background()
	_, js := setup(t, Config{})
	p, _ := NewPublisher(js, Config{}, "alpha")
	ch, deliver := collector()
	sub, err := Subscribe(ctx, js, Config{}, Options{From: 1}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	publishN(t, p, 5, "before")
	var last uint64
	for i := uint64(1); i <= 5; i++ {
		last = wantEvent(t, ch, i, "alpha").Seq
	}
	sub.Stop()
	publishN(t, p, 5, "missed")
	ch, deliver = collector()
	sub, err = Subscribe(ctx, js, Config{}, Options{From: last + 1}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	for i := uint64(6); i <= 10; i++ {
		e := wantEvent(t, ch, i, "alpha")
		if !strings.Contains(string(e.Data), "missed") {
			t.Fatalf("event %d is %s", i, e.Data)
		}
	}
	publishN(t, p, 1, "after")
	wantEvent(t, ch, 11, "alpha")
}

// The hub goes down under a live subscriber and comes back on the same
// store: the subscriber resumes by itself, with no duplicate and no loss.
func TestSubscriberSurvivesHubRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a server")
	}
	ctx := context.Background()
	h, js := setup(t, Config{})
	p, _ := NewPublisher(js, Config{}, "alpha")
	ch, deliver := collector()
	sub, err := Subscribe(ctx, js, Config{}, Options{From: 1}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	publishN(t, p, 3, "before")
	for i := uint64(1); i <= 3; i++ {
		wantEvent(t, ch, i, "alpha")
	}
	h.Restart()
	// Publishing waits for the reconnection; retry until the hub answers.
	for i := 0; i < 3; i++ {
		for {
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := p.Publish(pctx, "pane_closed", []byte(`{}`))
			cancel()
			if err == nil {
				break
			}
		}
	}
	for i := uint64(4); i <= 6; i++ {
		if e := wantEvent(t, ch, i, "alpha"); e.Kind != "pane_closed" {
			t.Fatalf("event %d kind %s", i, e.Kind)
		}
	}
}

// Events dropped by the stream's byte bound are reported as a Lost with
// the gap, then the rest are delivered.
func TestLostWhenTheStreamDroppedEvents(t *testing.T) {
	ctx := context.Background()
	cfg := Config{MaxBytes: 2048}
	_, js := setup(t, cfg)
	p, _ := NewPublisher(js, cfg, "alpha")
	publishN(t, p, 100, "x")
	s, _ := js.Stream(ctx, DefaultStream)
	info, _ := s.Info(ctx)
	first := info.State.FirstSeq
	if first <= 1 || info.State.LastSeq != 100 {
		t.Fatalf("the bound dropped nothing: %+v", info.State)
	}
	ch, deliver := collector()
	sub, err := Subscribe(ctx, js, cfg, Options{From: 1}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	d := next(t, ch)
	if d.Lost == nil || d.Lost.Wanted != 1 || d.Lost.First != first || d.Lost.Reset {
		t.Fatalf("want Lost{1,%d}, got %+v %+v", first, d.Lost, d.Event)
	}
	if !strings.Contains(d.Lost.String(), "no longer in the stream") {
		t.Fatal(d.Lost.String())
	}
	for i := first; i <= 100; i++ {
		wantEvent(t, ch, i, "alpha")
	}
}

// A gap inside what is replayed (an event gone from the middle) is seen
// at the jump, not only at the start.
func TestLostForAGapInTheMiddle(t *testing.T) {
	ctx := context.Background()
	_, js := setup(t, Config{})
	p, _ := NewPublisher(js, Config{}, "alpha")
	publishN(t, p, 5, "x")
	s, _ := js.Stream(ctx, DefaultStream)
	if err := s.DeleteMsg(ctx, 3); err != nil {
		t.Fatal(err)
	}
	ch, deliver := collector()
	sub, err := Subscribe(ctx, js, Config{}, Options{From: 1, Members: []string{"alpha"}}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	wantEvent(t, ch, 1, "alpha")
	wantEvent(t, ch, 2, "alpha")
	if d := next(t, ch); d.Lost == nil || d.Lost.Wanted != 3 || d.Lost.First != 4 {
		t.Fatalf("want Lost{3,4}, got %+v %+v", d.Lost, d.Event)
	}
	wantEvent(t, ch, 4, "alpha")
	wantEvent(t, ch, 5, "alpha")
}

// A subscriber wanting a sequence past the stream's end (the hub lost its
// store and the stream began again) is told of the reset.
func TestLostResetWhenTheStreamBeganAgain(t *testing.T) {
	ctx := context.Background()
	_, js := setup(t, Config{})
	p, _ := NewPublisher(js, Config{}, "alpha")
	publishN(t, p, 2, "x")
	ch, deliver := collector()
	sub, err := Subscribe(ctx, js, Config{}, Options{From: 50}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	if d := next(t, ch); d.Lost == nil || !d.Lost.Reset || d.Lost.Wanted != 50 || d.Lost.First != 1 {
		t.Fatalf("want a reset Lost, got %+v", d.Lost)
	}
	wantEvent(t, ch, 1, "alpha")
	wantEvent(t, ch, 2, "alpha")
}

func TestBadNamesAreRefused(t *testing.T) {
	ctx := context.Background()
	_, js := setup(t, Config{})
	for _, name := range []string{"", "a.b", "a b", "a*", "a>", "x\x01"} {
		if _, err := NewPublisher(js, Config{}, name); err == nil {
			t.Fatalf("member name %q accepted", name)
		}
		if _, err := Subscribe(ctx, js, Config{}, Options{Members: []string{name}}, func(Delivery) {}); err == nil {
			t.Fatalf("subscriber member %q accepted", name)
		}
	}
	p, _ := NewPublisher(js, Config{}, "alpha")
	if _, err := p.Publish(ctx, "pane.created", nil); err == nil || !strings.Contains(err.Error(), "event kind") {
		t.Fatalf("kind with a dot: %v", err)
	}
	if _, err := Subscribe(ctx, js, Config{Stream: "NOPE"}, Options{}, func(Delivery) {}); !IsNoStream(err) {
		t.Fatalf("missing stream: %v", err)
	}
}

// Ensure applies new bounds to an existing stream.
func TestEnsureUpdatesBounds(t *testing.T) {
	ctx := context.Background()
	_, js := setup(t, Config{})
	s, err := Ensure(ctx, js, Config{MaxAge: time.Hour, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info(ctx)
	if info.Config.MaxAge != time.Hour || info.Config.MaxBytes != 1<<20 {
		t.Fatalf("bounds not applied: %v %v", info.Config.MaxAge, info.Config.MaxBytes)
	}
}

// A live subscriber whose own connection drops misses what is published
// meanwhile, and gets it back in order, without a duplicate, once its
// connection returns by itself.
func TestDisconnectedSubscriberGetsWhatItMissed(t *testing.T) {
	ctx := context.Background()
	h, js := setup(t, Config{})
	p, _ := NewPublisher(js, Config{}, "alpha")
	px := startProxy(t, h.Srv.Addr().String())
	nc, sjs := natstest.Connect(t, px.url())
	ch, deliver := collector()
	sub, err := Subscribe(ctx, sjs, Config{}, Options{From: 1}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	publishN(t, p, 3, "before")
	for i := uint64(1); i <= 3; i++ {
		wantEvent(t, ch, i, "alpha")
	}
	px.cut()
	for nc.IsConnected() {
		time.Sleep(10 * time.Millisecond)
	}
	publishN(t, p, 20, "missed")
	px.up()
	for i := uint64(4); i <= 23; i++ {
		wantEvent(t, ch, i, "alpha")
	}
	publishN(t, p, 1, "after")
	wantEvent(t, ch, 24, "alpha")
}

// Events dropped by the stream's bound while a live subscriber was cut
// off are reported as a Lost with the gap when it returns, then the rest
// follow.
func TestDisconnectedSubscriberIsToldWhatWasDropped(t *testing.T) {
	ctx := context.Background()
	cfg := Config{MaxBytes: 4096}
	h, js := setup(t, cfg)
	p, _ := NewPublisher(js, cfg, "alpha")
	px := startProxy(t, h.Srv.Addr().String())
	nc, sjs := natstest.Connect(t, px.url())
	ch, deliver := collector()
	sub, err := Subscribe(ctx, sjs, cfg, Options{From: 1}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	publishN(t, p, 2, "before")
	wantEvent(t, ch, 1, "alpha")
	wantEvent(t, ch, 2, "alpha")
	px.cut()
	for nc.IsConnected() {
		time.Sleep(10 * time.Millisecond)
	}
	publishN(t, p, 200, "dropped")
	s, _ := js.Stream(ctx, DefaultStream)
	info, _ := s.Info(ctx)
	first := info.State.FirstSeq
	if first <= 3 {
		t.Fatalf("the bound dropped nothing: %+v", info.State)
	}
	px.up()
	d := next(t, ch)
	if d.Lost == nil || d.Lost.Wanted != 3 || d.Lost.First != first {
		t.Fatalf("want Lost{3,%d}, got %+v %+v", first, d.Lost, d.Event)
	}
	for i := first; i <= 202; i++ {
		wantEvent(t, ch, i, "alpha")
	}
}

// An event published again with its id (a retry) is stored once.
func TestPublishOnceStoresARetryOnce(t *testing.T) {
	ctx := context.Background()
	_, js := setup(t, Config{})
	p, _ := NewPublisher(js, Config{}, "alpha")
	a, err := p.PublishOnce(ctx, "pane_created", "alpha-7", []byte(`{"n":1}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.PublishOnce(ctx, "pane_created", "alpha-7", []byte(`{"n":1}`))
	if err != nil || a != b {
		t.Fatalf("retry stored as %d (first %d): %v", b, a, err)
	}
	c, _ := p.PublishOnce(ctx, "pane_created", "alpha-8", []byte(`{"n":2}`))
	if c != a+1 {
		t.Fatalf("next event at %d, want %d", c, a+1)
	}
	if _, err := p.PublishOnce(ctx, "pane_created", "", nil); err == nil {
		t.Fatal("an empty id was accepted")
	}
}

// A subscriber whose stream is deleted under it is told so.
func TestSubscriberIsToldOfTrouble(t *testing.T) {
	t.Parallel() // it waits on the subscriber's heartbeat to miss: the rest of the package runs meanwhile
	ctx := context.Background()
	_, js := setup(t, Config{})
	ch, deliver := collector()
	sub, err := Subscribe(ctx, js, Config{}, Options{}, deliver)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()
	if err := js.DeleteStream(ctx, DefaultStream); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case d := <-ch:
			if d.Err != nil {
				return
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no error delivered in 30s after the stream was deleted")
		}
	}
}
