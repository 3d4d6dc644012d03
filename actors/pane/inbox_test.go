package pane

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The actor must see exactly the bytes the reader put, in order, however
// the puts and takes interleave, with each take near its limit.
func TestInboxKeepsTheStream(t *testing.T) {
	in := newInbox(nil)
	var want bytes.Buffer
	rng := rand.New(rand.NewPCG(1, 2))
	chunks := make([][]byte, 400)
	for i := range chunks {
		c := make([]byte, 1+rng.IntN(3*blockSize/2))
		for j := range c {
			c[j] = byte(rng.IntN(256))
		}
		chunks[i] = c
		want.Write(c)
	}
	go func() {
		for _, c := range chunks {
			for len(c) > 0 { // as the reader does: at most a block per read
				b := getBlock()
				k := copy(b[:cap(b)], c)
				in.push(b[:k])
				c = c[k:]
			}
		}
	}()
	var got bytes.Buffer
	for got.Len() < want.Len() {
		batch, _ := in.take(turnBytes)
		size := 0
		for _, b := range batch {
			size += len(b)
			got.Write(b)
		}
		if len(batch) > 1 && size > turnBytes {
			t.Fatalf("a take of %d blocks returned %d bytes, over the %d limit", len(batch), size, turnBytes)
		}
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("the stream the actor read differs from what the reader put")
	}
}

func TestInboxRingsOncePerBatch(t *testing.T) {
	in := newInbox(nil)
	block := func(s string) []byte { return append(getBlock(), s...) }
	if !in.push(block("a")) {
		t.Fatal("the first push must ring")
	}
	if in.push(block("b")) {
		t.Fatal("a push while rung must not ring again")
	}
	if len(in.queue) != 1 || string(in.queue[0]) != "ab" {
		t.Fatalf("small pushes must share a block: %q", in.queue)
	}
	for range 3 {
		full := getBlock()[:blockSize]
		in.push(full)
	}
	batch, more := in.take(blockSize)
	if len(batch) != 1 || !more {
		t.Fatalf("take(one block) = %d blocks, more %v; want 1, true", len(batch), more)
	}
	for more {
		_, more = in.take(turnBytes)
	}
	if in.pending != 0 {
		t.Fatalf("pending = %d once all is taken", in.pending)
	}
	if !in.push(block("c")) {
		t.Fatal("once drained, the next push must ring")
	}
}

// Once the actor has applied what it took, the pane holds no block: an
// idle pane must not keep 64 KiB of output buffer.
func TestInboxReleaseKeepsNoBlock(t *testing.T) {
	in := newInbox(nil)
	in.push(append(getBlock(), "prompt$ "...))
	batch, more := in.take(turnBytes)
	if len(batch) != 1 || more {
		t.Fatalf("take = %d blocks, more %v; want 1, false", len(batch), more)
	}
	in.release()
	if len(in.taken) != 0 || len(in.queue) != 0 {
		t.Fatalf("after release the inbox holds %d taken and %d queued blocks", len(in.taken), len(in.queue))
	}
}

// A take leaves no block behind in the queue's spare slots: a block handed
// back to the pool, or to another pane, must not stay alive as long as
// this pane does.
func TestInboxTakeKeepsNoBlockBehind(t *testing.T) {
	in := newInbox(nil)
	for range 4 {
		in.push(getBlock()[:blockSize])
	}
	for more := true; more; {
		_, more = in.take(blockSize)
		in.release()
	}
	for i, b := range in.queue[:cap(in.queue)] {
		if b != nil {
			t.Fatalf("slot %d of the drained queue still holds a block of %d bytes", i, cap(b))
		}
	}
}
