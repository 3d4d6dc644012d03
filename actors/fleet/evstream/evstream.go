package evstream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/nats-io/nats.go/jetstream"
)

// Defaults of Config.
const (
	// DefaultStream is the stream's name.
	DefaultStream = "HERDR_EVENTS"
	// DefaultPrefix is the first tokens of every event's subject.
	DefaultPrefix = "herdr.events"
	// DefaultMaxAge keeps a day: a member or subscriber away overnight
	// still catches up.
	DefaultMaxAge = 24 * time.Hour
	// DefaultMaxBytes bounds the stream on the hub's disk; a busy fleet
	// of fifty members at a few events a second each stays well inside a
	// day at a few hundred bytes an event.
	DefaultMaxBytes = 256 << 20
)

// Config names and bounds the stream. Zero fields take the defaults.
type Config struct {
	Stream   string
	Prefix   string
	MaxAge   time.Duration
	MaxBytes int64
	// Replicas is the stream's replica count: 3 on a clustered hub, so
	// it survives one node going down; 1 (the default) otherwise.
	Replicas int
	// Memory keeps the stream in memory rather than on disk (tests and
	// benchmarks).
	Memory bool
}

func (c Config) withDefaults() Config {
	if c.Stream == "" {
		c.Stream = DefaultStream
	}
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.MaxAge == 0 {
		c.MaxAge = DefaultMaxAge
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.Replicas == 0 {
		c.Replicas = 1
	}
	return c
}

// streamConfig is the JetStream form of c.
func (c Config) streamConfig() jetstream.StreamConfig {
	c = c.withDefaults()
	storage := jetstream.FileStorage
	if c.Memory {
		storage = jetstream.MemoryStorage
	}
	return jetstream.StreamConfig{
		Name:        c.Stream,
		Description: "herdr fleet lifecycle events",
		Subjects:    []string{c.Prefix + ".>"},
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		MaxAge:      c.MaxAge,
		MaxBytes:    c.MaxBytes,
		Replicas:    c.Replicas,
		Storage:     storage,
	}
}

// Ensure creates the stream, or updates its bounds to cfg's.
func Ensure(ctx context.Context, js jetstream.JetStream, cfg Config) (jetstream.Stream, error) {
	s, err := js.CreateOrUpdateStream(ctx, cfg.streamConfig())
	if err != nil {
		return nil, fmt.Errorf("fleet event stream %s: %w", cfg.withDefaults().Stream, err)
	}
	return s, nil
}

// ValidToken reports why s cannot be one subject token (a member's name
// or an event kind), or nil.
func ValidToken(what, s string) error {
	if s == "" {
		return fmt.Errorf("%s is empty", what)
	}
	if len(s) > 128 {
		return fmt.Errorf("%s %.20q… is longer than 128 bytes", what, s)
	}
	for _, r := range s {
		if r == '.' || r == '*' || r == '>' || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return fmt.Errorf("%s %q holds %q: a name here may not hold '.', '*', '>', spaces or control characters", what, s, r)
		}
	}
	return nil
}

// Publisher publishes one member's events.
type Publisher struct {
	js     jetstream.JetStream
	prefix string
	member string
}

// NewPublisher returns member's publisher, refusing a name that is not
// one subject token.
func NewPublisher(js jetstream.JetStream, cfg Config, member string) (*Publisher, error) {
	if err := ValidToken("member name", member); err != nil {
		return nil, err
	}
	return &Publisher{js: js, prefix: cfg.withDefaults().Prefix, member: member}, nil
}

// Publish stores one event (its envelope as JSON) of kind and returns its
// stream sequence. It waits for the stream's acknowledgement.
func (p *Publisher) Publish(ctx context.Context, kind string, envelope []byte) (uint64, error) {
	if err := ValidToken("event kind", kind); err != nil {
		return 0, err
	}
	ack, err := p.js.Publish(ctx, p.prefix+"."+p.member+"."+kind, envelope)
	if err != nil {
		return 0, fmt.Errorf("publish %s event of %s: %w", kind, p.member, err)
	}
	return ack.Sequence, nil
}

// PublishOnce is Publish for an event a member may send again (a retry
// after a timeout, whose first try the stream may have stored): id names
// the event (the member's name and its bus sequence, say), and the stream
// keeps one of each id within its duplicate window (two minutes). A
// duplicate answers the sequence of the one kept.
func (p *Publisher) PublishOnce(ctx context.Context, kind, id string, envelope []byte) (uint64, error) {
	if err := ValidToken("event kind", kind); err != nil {
		return 0, err
	}
	if id == "" {
		return 0, fmt.Errorf("publish %s event of %s: empty id", kind, p.member)
	}
	ack, err := p.js.Publish(ctx, p.prefix+"."+p.member+"."+kind, envelope, jetstream.WithMsgID(id))
	if err != nil {
		return 0, fmt.Errorf("publish %s event of %s: %w", kind, p.member, err)
	}
	return ack.Sequence, nil
}

// Event is one stored event.
type Event struct {
	Seq    uint64
	Member string
	Kind   string
	// Data is the envelope as the member published it.
	Data []byte
	// Time is when the stream stored it (the hub's clock).
	Time time.Time
}

// Lost says events are gone: Wanted is the sequence the subscriber
// wanted next, First the one it gets instead (the events between were
// dropped by the stream's bounds, or the stream was recreated: Reset).
type Lost struct {
	Wanted uint64
	First  uint64
	Reset  bool
}

func (l Lost) String() string {
	if l.Reset {
		return fmt.Sprintf("the fleet event stream was recreated: wanted sequence %d, resuming at %d", l.Wanted, l.First)
	}
	return fmt.Sprintf("fleet events %d to %d are no longer in the stream (its age or size bound); resuming at %d", l.Wanted, l.First-1, l.First)
}

// Delivery is one thing a subscriber is told: an event, a gap, or a
// trouble of its consumer (Err: a missed heartbeat, the hub gone, the
// stream deleted), for the log; the subscription goes on resuming by
// itself until stopped.
type Delivery struct {
	Event *Event
	Lost  *Lost
	Err   error
}

// Options say what a subscription reads.
type Options struct {
	// From is the first stream sequence wanted: the sequence after the
	// last one delivered to resume, 1 for everything the stream holds,
	// 0 for new events only.
	From uint64
	// Members, when given, are the only members whose events are
	// delivered (the others are read and skipped, so a gap is still seen
	// exactly).
	Members []string
}

// Subscription is a running subscriber.
type Subscription struct {
	cc    jetstream.ConsumeContext
	start uint64
}

// Start is the first stream sequence the subscription reads: with From
// 0, the one after the last the stream held as it began, so a subscriber
// that keeps its place knows where it stood even before an event came.
func (s *Subscription) Start() uint64 { return s.start }

// Stop ends the subscription. A delivery already under way may still
// finish, so an actor tells its subscriptions' messages apart (by the
// child that owns each, say) and drops a stopped one's.
func (s *Subscription) Stop() { s.cc.Stop() }

// Subscribe reads the stream from opts.From and calls deliver with each
// event, in stream order, and with a Lost before any gap. deliver runs on
// a NATS goroutine and must only hand the delivery on. The subscription
// resumes by itself across reconnections (an ordered consumer, recreated
// at the sequence after the last delivered).
func Subscribe(ctx context.Context, js jetstream.JetStream, cfg Config, opts Options, deliver func(Delivery)) (*Subscription, error) {
	cfg = cfg.withDefaults()
	for _, m := range opts.Members {
		if err := ValidToken("member name", m); err != nil {
			return nil, err
		}
	}
	s, err := js.Stream(ctx, cfg.Stream)
	if err != nil {
		return nil, fmt.Errorf("fleet event stream %s: %w", cfg.Stream, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet event stream %s: %w", cfg.Stream, err)
	}
	occ := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverNewPolicy}
	next := info.State.LastSeq + 1
	var lost *Lost
	if opts.From > 0 {
		next = opts.From
		first := info.State.FirstSeq
		if first == 0 { // an empty, new stream
			first = 1
		}
		switch {
		case opts.From > info.State.LastSeq+1:
			// Wanted a sequence the stream never reached: it was
			// recreated (the hub lost its store).
			next = first
			if info.State.Msgs == 0 {
				next = info.State.LastSeq + 1
			}
			lost = &Lost{Wanted: opts.From, First: next, Reset: true}
		case opts.From < first:
			next = first
			lost = &Lost{Wanted: opts.From, First: first}
		}
		occ.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
		occ.OptStartSeq = next
	}
	members := map[string]bool{}
	for _, m := range opts.Members {
		members[m] = true
	}
	cons, err := s.OrderedConsumer(ctx, occ)
	if err != nil {
		return nil, fmt.Errorf("fleet event subscriber: %w", err)
	}
	if lost != nil {
		deliver(Delivery{Lost: lost})
	}
	prefix := cfg.Prefix + "."
	// expect is touched only by the handler, which the consumer calls
	// one message at a time.
	expect := next
	handler := func(m jetstream.Msg) {
		meta, err := m.Metadata()
		if err != nil {
			return
		}
		seq := meta.Sequence.Stream
		if seq < expect {
			return // already delivered (a redelivery after a reset)
		}
		if seq > expect {
			// Without a filter, sequences are contiguous: a jump is
			// events the stream dropped while the subscriber was away.
			deliver(Delivery{Lost: &Lost{Wanted: expect, First: seq}})
		}
		expect = seq + 1
		rest, ok := strings.CutPrefix(m.Subject(), prefix)
		if !ok {
			return
		}
		member, kind, _ := strings.Cut(rest, ".")
		if len(members) > 0 && !members[member] {
			return
		}
		deliver(Delivery{Event: &Event{Seq: seq, Member: member, Kind: kind, Data: m.Data(), Time: meta.Timestamp}})
	}
	cc, err := cons.Consume(handler, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		deliver(Delivery{Err: fmt.Errorf("fleet event subscriber: %w", err)})
	}))
	if err != nil {
		return nil, fmt.Errorf("fleet event subscriber: %w", err)
	}
	return &Subscription{cc: cc, start: next}, nil
}

// IsNoStream reports whether err says the stream is missing.
func IsNoStream(err error) bool { return errors.Is(err, jetstream.ErrStreamNotFound) }
