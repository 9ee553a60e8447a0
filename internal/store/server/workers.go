package server

// workerPool runs request handlers on long-lived goroutines. A goroutine per
// request starts on a small stack and grows it again through the deep
// Pebble read path on every request (runtime.copystack was a fifth of the
// node's CPU under point reads); pooled workers keep their grown stacks.
//
// A task goes to an idle worker when there is one; otherwise it gets a
// goroutine of its own, so a request blocked on latches never holds up
// the others.
type workerPool struct {
	tasks chan func()
}

func newWorkerPool(n int) *workerPool {
	p := &workerPool{tasks: make(chan func())}
	for range n {
		go p.work()
	}
	return p
}

func (p *workerPool) work() {
	for f := range p.tasks {
		f()
	}
}

// submit runs f on an idle worker, or on a new goroutine if none is idle.
func (p *workerPool) submit(f func()) {
	select {
	case p.tasks <- f:
	default:
		go f()
	}
}
