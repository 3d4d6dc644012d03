package pane

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The actor must see exactly the bytes the reader put, in order, however
// the puts and takes interleave, with each take near its limit.
func TestInboxKeepsTheStream(t *testing.T) {
	in := newInbox()
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
			in.put(c)
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
	in := newInbox()
	if !in.put([]byte("a")) {
		t.Fatal("the first put must ring")
	}
	if in.put([]byte("b")) {
		t.Fatal("a put while rung must not ring again")
	}
	big := make([]byte, 3*blockSize)
	in.put(big)
	batch, more := in.take(blockSize)
	if len(batch) != 1 || !more {
		t.Fatalf("take(one block) = %d blocks, more %v; want 1, true", len(batch), more)
	}
	for more {
		_, more = in.take(turnBytes)
	}
	if !in.put([]byte("c")) {
		t.Fatal("once drained, the next put must ring")
	}
	if len(in.free) > keepFree {
		t.Fatalf("%d spare blocks kept, at most %d", len(in.free), keepFree)
	}
}
