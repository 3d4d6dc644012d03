package buffers

import (
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the methods the table gives the buffers actor.
var Registry = kit.NewRegistry(protocol.OwnerBuffers, "actors/buffers", map[string]func(*Buffers, actor.Context, *kit.Call) *kit.Reply{
	"buffer.list":   (*Buffers).list,
	"buffer.get":    (*Buffers).get,
	"buffer.set":    (*Buffers).set,
	"buffer.delete": (*Buffers).delete,
	"buffer.paste":  (*Buffers).paste,
})

// Options configure the buffers actor.
type Options struct {
	// Session resolves buffer.paste's pane and carries its typing.
	Session *actor.PID
	// Routes route the calls the read side answers or resolves from it,
	// never through the session's mailbox (nil: all go to Session).
	Routes *kit.SessionRoutes
	Log    *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Max is the most buffers kept (protocol.BufferMaxCount when 0).
	Max int
}

// Buffers is the actor.
type Buffers struct {
	opts Options
	// kept holds the buffers, newest first.
	kept []buffer
	// next numbers the next unnamed buffer.
	next uint64
}

type buffer struct {
	name    string
	text    string
	created time.Time
}

// Props returns the buffers actor's props.
func Props(opts Options) *actor.Props {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Max <= 0 {
		opts.Max = protocol.BufferMaxCount
	}
	return actor.PropsFromProducer(func() actor.Actor { return &Buffers{opts: opts} }, kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (b *Buffers) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *kit.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			kit.Unhandled(ctx, msg, b.opts.Log)
			return
		}
		if r := h(b, ctx, msg); r != nil {
			ctx.Respond(r)
		}
	default:
		kit.Unhandled(ctx, msg, b.opts.Log)
	}
}

// find is the index of the buffer named name ("" the newest), or -1.
func (b *Buffers) find(name string) int {
	if name == "" {
		if len(b.kept) == 0 {
			return -1
		}
		return 0
	}
	return slices.IndexFunc(b.kept, func(x buffer) bool { return x.name == name })
}

func (b *Buffers) notFound(name string) *kit.Reply {
	if name == "" {
		return kit.Fail(protocol.Errorf(protocol.CodeBufferNotFound, "there are no paste buffers (a yank in copy mode or buffer.set adds one)"))
	}
	return kit.Fail(protocol.Errorf(protocol.CodeBufferNotFound, "no paste buffer is named %q (buffer.list shows them)", name))
}

func (x buffer) info() protocol.BufferInfo {
	return protocol.BufferInfo{Name: x.name, Bytes: len(x.text), Created: x.created.UnixMilli()}
}

func (b *Buffers) list(actor.Context, *kit.Call) *kit.Reply {
	out := protocol.BufferList{Buffers: make([]protocol.BufferInfo, 0, len(b.kept))}
	for _, x := range b.kept {
		info := x.info()
		info.Preview = protocol.BufferPreview(x.text)
		out.Buffers = append(out.Buffers, info)
	}
	return kit.Done(out)
}

func (b *Buffers) get(_ actor.Context, call *kit.Call) *kit.Reply {
	name := call.Params.(*protocol.BufferGetParams).Buffer
	i := b.find(name)
	if i < 0 {
		return b.notFound(name)
	}
	info := b.kept[i].info()
	info.Text = b.kept[i].text
	return kit.Done(protocol.BufferInfoResult{Buffer: info})
}

// set keeps a text as the newest buffer: under its name (replacing the
// buffer of that name) or the next free buffer<N>; past the bound the
// oldest goes.
func (b *Buffers) set(_ actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.BufferSetParams)
	name := p.Name
	if name == "" {
		name = b.nextName()
	} else if i := b.find(name); i >= 0 {
		b.kept = slices.Delete(b.kept, i, i+1)
	}
	x := buffer{name: name, text: p.Text, created: b.opts.Now()}
	b.kept = slices.Insert(b.kept, 0, x)
	if len(b.kept) > b.opts.Max {
		clear(b.kept[b.opts.Max:]) // the texts go with them
		b.kept = b.kept[:b.opts.Max]
	}
	return kit.Done(protocol.BufferInfoResult{Buffer: x.info()})
}

// nextName is buffer<N> for the next N no buffer is named already (one
// may have been given such a name by buffer.set).
func (b *Buffers) nextName() string {
	for {
		name := "buffer" + strconv.FormatUint(b.next, 10)
		b.next++
		if b.find(name) < 0 {
			return name
		}
	}
}

func (b *Buffers) delete(_ actor.Context, call *kit.Call) *kit.Reply {
	name := call.Params.(*protocol.BufferDeleteParams).Buffer
	i := b.find(name)
	if i < 0 {
		return b.notFound(name)
	}
	b.kept = slices.Delete(b.kept, i, i+1)
	return kit.OK()
}

// paste hands the buffer's text to the session as the pane's typing; the
// pane answers the caller (nil: answered there).
func (b *Buffers) paste(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.BufferPasteParams)
	i := b.find(p.Buffer)
	if i < 0 {
		return b.notFound(p.Buffer)
	}
	if b.opts.Session == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "buffer.paste: no session to reach the pane through"))
	}
	typing := &kit.Call{ID: call.ID, Method: "pane.send_input", Params: &protocol.PaneSendInputParams{PaneID: p.PaneID, Text: protocol.PastedText(b.kept[i].text)}}
	b.opts.Routes.Send(ctx, b.opts.Session, typing, ctx.Sender())
	return nil
}
