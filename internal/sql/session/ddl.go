package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/server"
)

// execDDL runs a DDL statement through the catalog. Like MySQL, DDL
// commits the open transaction first.
func (s *Session) execDDL(ctx context.Context, stmt ast.StmtNode) (server.Result, error) {
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	env := catalog.Env{CurrentDB: s.db, DisableClusteredIndex: strings.EqualFold(s.vars.ClusteredIndex(), "OFF"),
		DisableForeignKeyChecks: !s.vars.ForeignKeyChecks()}
	if err := s.d.catalog.Exec(ctx, env, stmt); err != nil {
		return nil, err
	}
	// A later statement of this session sees its own DDL at once.
	if _, err := s.d.catalog.Refresh(ctx); err != nil {
		return nil, err
	}
	return &okResult{}, nil
}

// isDDL reports whether stmt is handled by the catalog.
func isDDL(stmt ast.StmtNode) bool {
	switch stmt.(type) {
	case *ast.CreateDatabaseStmt, *ast.DropDatabaseStmt, *ast.CreateTableStmt, *ast.DropTableStmt,
		*ast.TruncateTableStmt, *ast.RenameTableStmt, *ast.CreateIndexStmt, *ast.DropIndexStmt,
		*ast.AlterTableStmt:
		return true
	}
	return false
}
