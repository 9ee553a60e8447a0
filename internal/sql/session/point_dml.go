package session

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/planner"
)

// pointDML reports whether p is an UPDATE or DELETE whose every read is a
// point get by primary key or unique index, or an INSERT or REPLACE of
// VALUES (whose reads are point reads of the keys that decide
// duplicates), on a table without foreign keys in either direction (a
// check or a cascade would read more).
//
// In a pessimistic transaction such a statement locks every key it reads,
// present or not, as it reads it (txnclient.LockingView), and every key
// it writes. So it may run at the
// transaction's current for_update_ts instead of a new one from PD, as
// TiDB does (notNeedGetLatestTSFromPD): a write committed since on any of
// those keys fails the lock with a PessimisticRetry conflict, and the
// statement runs again at a fresh for_update_ts; when the lock succeeds,
// nothing it read has changed.
func pointDML(p planner.Plan) bool {
	if d, ok := p.(*planner.Insert); ok {
		return d.Select == nil && !hasFKs(d.InfoSchema, d.Table)
	}
	is, t, ok := updateOrDelete(p)
	if !ok || hasFKs(is, t) {
		return false
	}
	c := p.Children()
	return len(c) == 1 && pointReadsOnly(c[0])
}

// updateOrDelete returns the schema and table of an UPDATE or DELETE.
func updateOrDelete(p planner.Plan) (*catalog.InfoSchema, *catalog.TableInfo, bool) {
	switch d := p.(type) {
	case *planner.Update:
		return d.InfoSchema, d.Table, true
	case *planner.Delete:
		return d.InfoSchema, d.Table, true
	}
	return nil, nil, false
}

// pointWrite reports whether p is an UPDATE or DELETE that reads one row
// by its primary key handle and no other key, on a table without foreign
// keys in either direction. In autocommit such a statement may read its
// row at the newest version while its start ts is on its way from PD
// (txnclient.BeginNewest): the prewrite of the row checks that nothing
// newer than what was read has been written since. An UPDATE that may
// move the row to another handle, or of a table with a unique index,
// reads the new keys to check them for duplicates (exec's updateRow), each
// at its own instant: a duplicate found that way is not checked again at
// the commit, and could be a false one.
func pointWrite(p planner.Plan) bool {
	is, t, ok := updateOrDelete(p)
	if !ok || hasFKs(is, t) {
		return false
	}
	if u, ok := p.(*planner.Update); ok && !updateReadsOnlyItsRow(t, u.Assigns) {
		return false
	}
	c := p.Children()
	return len(c) == 1 && pointRead(c[0])
}

// updateReadsOnlyItsRow reports whether an UPDATE of t setting assigns
// reads no key but its row's: t has no unique index, and the assignments
// leave the handle column alone.
func updateReadsOnlyItsRow(t *catalog.TableInfo, assigns []planner.Assignment) bool {
	for _, ix := range t.WritableIndices() {
		if ix.Unique {
			return false
		}
	}
	h := t.PKHandleColumn()
	if h == nil {
		return true
	}
	if h.GeneratedExpr != "" {
		return false
	}
	for _, a := range assigns {
		if a.Col == h.Offset {
			return false
		}
	}
	return true
}

// pointReadsOnly reports whether p reads only through point gets,
// filtered or projected.
func pointReadsOnly(p planner.Plan) bool {
	switch p.(type) {
	case *planner.PointGet:
		return true
	case *planner.Selection, *planner.Projection:
		c := p.Children()
		return len(c) == 1 && pointReadsOnly(c[0])
	}
	return false
}

// pointRead reports whether p reads one row by its primary key handle and
// nothing else (filtered or projected): one key, one read. In autocommit
// such a read needs no timestamp from PD: it reads the newest committed
// version (start ts MaxUint64), as TiDB's optimizeWithMaxTS does. That is
// linearizable: the leader answers from a snapshot taken under its lease
// or after ReadIndex, and a read at MaxUint64 does not raise max_ts. A
// lock on the key is resolved as for any read, except that the read goes
// past a 2PC lock whose txn is not committed (a primary's own lock; a
// secondary whose primary CheckTxnStatus finds still locked): that txn
// has not committed, so the newest committed version is the answer.
func pointRead(p planner.Plan) bool {
	switch v := p.(type) {
	case *planner.PointGet:
		return v.Index == nil && len(v.Handles) == 1
	case *planner.Selection, *planner.Projection:
		c := p.Children()
		return len(c) == 1 && pointRead(c[0])
	}
	return false
}

// hasFKs reports whether t has foreign keys or is referenced by one (or
// the schema to tell is missing).
func hasFKs(is *catalog.InfoSchema, t *catalog.TableInfo) bool {
	if is == nil || t == nil {
		return true
	}
	if len(t.ForeignKeys) > 0 {
		return true
	}
	db, ok := is.DatabaseByID(t.DBID)
	return !ok || len(is.ReferencingFKs(db.Name, t.Name)) > 0
}
