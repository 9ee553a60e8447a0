package session

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// procInfo is what SHOW PROCESSLIST shows of a session; the session's
// goroutine writes it, SHOW PROCESSLIST of other sessions reads it.
type procInfo struct {
	mu      sync.Mutex
	command string // "Sleep" or "Query"
	sql     string
	since   time.Time
}

func (p *procInfo) set(command, sql string) {
	p.mu.Lock()
	p.command, p.sql, p.since = command, sql, time.Now()
	p.mu.Unlock()
}

// SetKiller gives the Domain the protocol server's Kill, for KILL
// statements (the server is created after the Domain).
func (d *Domain) SetKiller(kill func(connID uint32, query bool) bool) {
	d.mu.Lock()
	d.kill = kill
	d.mu.Unlock()
}

// execKill runs KILL [CONNECTION | QUERY] id.
func (s *Session) execKill(st *ast.KillStmt) (server.Result, error) {
	s.d.mu.Lock()
	kill := s.d.kill
	_, known := s.d.sessions[uint32(st.ConnectionID)]
	s.d.mu.Unlock()
	if !known || kill == nil || st.ConnectionID > uint64(^uint32(0)) || !kill(uint32(st.ConnectionID), st.Query) {
		return nil, sqlerr.New(sqlerr.ErrNoSuchThread, st.ConnectionID)
	}
	return &okResult{}, nil
}

// processListNames are SHOW PROCESSLIST's columns.
var processListNames = []string{"Id", "User", "Host", "db", "Command", "Time", "State", "Info"}

// execShowProcessList lists the sessions of this server; Info is cut to
// 100 characters unless FULL.
func (s *Session) execShowProcessList(ctx context.Context, full bool) (server.Result, error) {
	var rows [][]types.Datum
	for _, p := range s.d.processes(func(*Session) bool { return true }) {
		info := types.NewNullDatum()
		if p.HasInfo {
			sql := p.Info
			if !full && len(sql) > 100 {
				sql = sql[:100]
			}
			info = types.NewStringDatum(sql)
		}
		db := types.NewNullDatum()
		if p.DB != "" {
			db = types.NewStringDatum(p.DB)
		}
		rows = append(rows, []types.Datum{
			types.NewIntDatum(int64(p.ID)), types.NewStringDatum(p.User), types.NewStringDatum(p.Host),
			db, types.NewStringDatum(p.Command), types.NewIntDatum(p.Time), types.NewStringDatum(p.State), info,
		})
	}
	return datumsResult(processListNames, rows), nil
}

// processes lists the sessions keep accepts, by connection id, as
// PROCESSLIST shows them (SHOW PROCESSLIST too).
func (d *Domain) processes(keep func(o *Session) bool) []infoschema.Process {
	d.mu.Lock()
	sessions := make([]*Session, 0, len(d.sessions))
	for _, o := range d.sessions {
		if keep(o) {
			sessions = append(sessions, o)
		}
	}
	d.mu.Unlock()
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].conn.ID < sessions[j].conn.ID })
	out := make([]infoschema.Process, 0, len(sessions))
	for _, o := range sessions {
		o.proc.mu.Lock()
		cmd, sql, since := o.proc.command, o.proc.sql, o.proc.since
		o.proc.mu.Unlock()
		if cmd == "" {
			cmd = "Sleep"
		}
		// o.db is read unlocked, as SHOW PROCESSLIST always did.
		p := infoschema.Process{ID: uint64(o.conn.ID), User: o.conn.User, Host: o.conn.Host, DB: o.db,
			Command: cmd, State: stateOf(cmd), Info: sql, HasInfo: cmd == "Query"}
		if !since.IsZero() {
			p.Time = int64(time.Since(since).Seconds())
		}
		out = append(out, p)
	}
	return out
}

func stateOf(cmd string) string {
	if cmd == "Query" {
		return "executing"
	}
	return ""
}
