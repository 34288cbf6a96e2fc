package ring

import "sync"

// batcher sends the requests bound for one owner together. There is no
// timer: the first caller sends alone; whoever arrives while a batch is in
// flight waits, and the first of them sends all that waited as the next
// batch. Under load a batch holds everything that arrived during one round
// trip; idle, a request waits for nobody. (gubernator waits up to
// BatchWait, 500 µs by default, or BatchLimit requests.)
type batcher struct {
	send func([]Request) ([]Response, error)

	mu      sync.Mutex
	busy    bool
	pending []*call
}

// call is one request waiting in a batch.
type call struct {
	req  Request
	resp Response
	done chan struct{} // closed when resp is set
	lead chan struct{} // closed when this call is to send the next batch
}

// do sends r in the next batch to the owner and returns its answer.
func (b *batcher) do(r Request) Response {
	c := &call{req: r, done: make(chan struct{}), lead: make(chan struct{})}
	b.mu.Lock()
	b.pending = append(b.pending, c)
	leader := !b.busy
	b.busy = true
	b.mu.Unlock()
	if !leader {
		select {
		case <-c.done:
			return c.resp
		case <-c.lead:
		}
	}
	b.mu.Lock()
	batch := b.pending
	b.pending = nil
	b.mu.Unlock()
	b.flush(batch)
	b.mu.Lock()
	if len(b.pending) > 0 {
		close(b.pending[0].lead)
	} else {
		b.busy = false
	}
	b.mu.Unlock()
	return c.resp
}

// flush sends one batch and hands each call its answer.
func (b *batcher) flush(batch []*call) {
	reqs := make([]Request, len(batch))
	for i, c := range batch {
		reqs[i] = c.req
	}
	resps, err := b.send(reqs)
	for i, c := range batch {
		switch {
		case err != nil:
			c.resp = Response{Error: err.Error()}
		case i < len(resps):
			c.resp = resps[i]
		default:
			c.resp = Response{Error: "owner answered fewer decisions than it was sent"}
		}
		close(c.done)
	}
}
