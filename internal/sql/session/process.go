package session

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
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
	s.d.mu.Lock()
	sessions := make([]*Session, 0, len(s.d.sessions))
	for _, o := range s.d.sessions {
		sessions = append(sessions, o)
	}
	s.d.mu.Unlock()
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].conn.ID < sessions[j].conn.ID })
	var rows [][]types.Datum
	for _, o := range sessions {
		o.proc.mu.Lock()
		cmd, sql, since := o.proc.command, o.proc.sql, o.proc.since
		o.proc.mu.Unlock()
		if cmd == "" {
			cmd = "Sleep"
		}
		if !full && len(sql) > 100 {
			sql = sql[:100]
		}
		info := types.NewNullDatum()
		if cmd == "Query" {
			info = types.NewStringDatum(sql)
		}
		db := types.NewNullDatum()
		if o.db != "" {
			db = types.NewStringDatum(o.db)
		}
		secs := int64(0)
		if !since.IsZero() {
			secs = int64(time.Since(since).Seconds())
		}
		rows = append(rows, []types.Datum{
			types.NewIntDatum(int64(o.conn.ID)), types.NewStringDatum(o.conn.User), types.NewStringDatum(o.conn.Host),
			db, types.NewStringDatum(cmd), types.NewIntDatum(secs), types.NewStringDatum(stateOf(cmd)), info,
		})
	}
	return datumsResult(processListNames, rows), nil
}

func stateOf(cmd string) string {
	if cmd == "Query" {
		return "executing"
	}
	return ""
}
