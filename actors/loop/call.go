package loop

import (
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// callWithin bounds every call the actor makes.
const callWithin = 30 * time.Second

// send makes one call through the session from a kit.Caller child; the
// answer comes back as *kit.Answered with tag.
func (l *Loop) send(ctx actor.Context, tag any, method string, params any) {
	l.seq++
	call, err := kit.EncodeCall("loop:"+strconv.FormatUint(l.seq, 10), method, params)
	if err == nil && l.opts.Session == nil {
		err = protocol.Errorf(protocol.CodeInternal, "%s: no session to call", method)
	}
	if err != nil {
		ctx.Send(ctx.Self(), &kit.Answered{Tag: tag, Reply: kit.Fail(err)})
		return
	}
	c := &kit.Caller{Owner: l.opts.Session, Routes: l.opts.Routes, Call: call, Tag: tag, Within: callWithin}
	c.Spawn(ctx, l.opts.Log)
}

// decode reads a result's wire shape into out.
func decode(r any, out any) error { return kit.DecodeResult(r, out) }
