package session

import "sync"

// tsoModeStreams maps @@tidb_tso_client_rpc_mode to the number of TSO
// requests the PD client may have on the wire at once (TiDB's meaning).
var tsoModeStreams = map[string]int{"DEFAULT": 1, "PARALLEL": 2, "PARALLEL-FAST": 4}

// tsoMode hands @@GLOBAL.tidb_tso_client_rpc_mode to the process's PD
// client (DomainConfig.TSOStreams) whenever it may have changed: at
// start, after a SET GLOBAL here and after each sync with the other
// servers. It calls set only when the number differs from the last one.
type tsoMode struct {
	set  func(n int)
	mu   sync.Mutex
	last int
}

// applyTSOMode reads the GLOBAL value and passes its number on.
func (d *Domain) applyTSOMode() {
	m := &d.tsoMode
	if m.set == nil {
		return
	}
	v, _ := d.globals.Globals().Get("tidb_tso_client_rpc_mode")
	n, ok := tsoModeStreams[v]
	if !ok {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if n != m.last {
		m.last = n
		m.set(n)
	}
}
