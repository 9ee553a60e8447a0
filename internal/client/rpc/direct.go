package rpc

import "fmt"

// direct is the in-process Client of the embedded server: one store,
// reached by plain method calls, no serialization.
type direct struct {
	addr string
	api  StoreAPI
}

// NewDirect returns a Client that reaches the single store at addr by
// calling api directly.
func NewDirect(addr string, api StoreAPI) Client { return &direct{addr: addr, api: api} }

func (d *direct) Store(addr string) (StoreAPI, error) {
	if addr != d.addr {
		return nil, fmt.Errorf("rpc: unknown store %q (direct client serves %q)", addr, d.addr)
	}
	return d.api, nil
}

func (d *direct) Close() error { return nil }
