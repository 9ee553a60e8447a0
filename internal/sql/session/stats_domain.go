package session

import (
	"context"
	"math"
	"strconv"

	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
)

// The statistics' system variables, with TiDB's names and defaults.
const (
	varAutoAnalyzeRatio  = "tidb_auto_analyze_ratio"
	varEnableAutoAnalyze = "tidb_enable_auto_analyze"
)

// registerStatsVars adds the statistics' variables to reg (before the
// GLOBAL store is built over it).
func registerStatsVars(reg *sysvar.Registry) {
	for _, sv := range []sysvar.SysVar{
		{Name: varAutoAnalyzeRatio, Scope: sysvar.ScopeGlobal, Type: sysvar.TypeFloat, Default: "0.5", MinFloat: 0, MaxFloat: math.MaxUint64},
		{Name: varEnableAutoAnalyze, Scope: sysvar.ScopeGlobal, Type: sysvar.TypeBool, Default: "ON"},
	} {
		if _, ok := reg.Lookup(sv.Name); !ok {
			_ = reg.Register(sv)
		}
	}
}

// autoAnalyzeRatio is tidb_auto_analyze_ratio, or 0 (off) when
// tidb_enable_auto_analyze is OFF.
func (d *Domain) autoAnalyzeRatio() float64 {
	g := d.globals.Globals()
	if v, err := g.Get(varEnableAutoAnalyze); err != nil || v != "ON" {
		return 0
	}
	v, err := g.Get(varAutoAnalyzeRatio)
	if err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0
	}
	return f
}

// syncStats is the sync loop's statistics step: flush this server's
// modification counts, reload what other servers wrote, and start an
// automatic ANALYZE if a table calls for one (in the background).
func (d *Domain) syncStats(ctx context.Context) {
	if err := d.stats.Flush(ctx); err != nil && ctx.Err() == nil {
		d.log.Warn("statistics flush failed", "err", err)
	}
	if err := d.stats.Refresh(ctx); err != nil {
		if ctx.Err() == nil {
			d.log.Warn("statistics sync failed", "err", err)
		}
		return
	}
	d.dropStaleStats(ctx)
	d.stats.AutoAnalyze(ctx, baseTables(d.catalog.InfoSchema()), d.autoAnalyzeRatio(), func(t *catalog.TableInfo, err error) {
		if err != nil && ctx.Err() == nil {
			d.log.Warn("auto analyze failed", "table", t.Name, "err", err)
		} else if err == nil {
			d.log.Info("auto analyze done", "table", t.Name)
		}
	})
}

// dropStaleStats deletes the statistics of tables that no longer exist
// (dropped, or truncated: TRUNCATE gives the table a new ID). The schema
// is read after the statistics were, so a table whose statistics were
// seen is in it unless it is gone.
func (d *Domain) dropStaleStats(ctx context.Context) {
	is, err := d.catalog.Refresh(ctx)
	if err != nil {
		return
	}
	for _, id := range d.stats.TableIDs() {
		if _, ok := is.TableByID(id); ok {
			continue
		}
		if err := d.stats.DropTable(ctx, id); err != nil && ctx.Err() == nil {
			d.log.Warn("dropping statistics of a dropped table failed", "table_id", id, "err", err)
		}
	}
}

// baseTables lists the tables (not views) of every database.
func baseTables(is *catalog.InfoSchema) []*catalog.TableInfo {
	var out []*catalog.TableInfo
	for _, db := range is.Databases() {
		ts, err := is.Tables(db.Name)
		if err != nil {
			continue
		}
		for _, t := range ts {
			if t.View == nil {
				out = append(out, t)
			}
		}
	}
	return out
}

// tableRows is information_schema TABLES.TABLE_ROWS (and SHOW TABLE
// STATUS's Rows): the statistics' row count, 0 when unknown.
func (d *Domain) tableRows(t *catalog.TableInfo) uint64 {
	st := d.stats.Table(t.ID)
	if st == nil {
		return 0
	}
	return uint64(st.Meta.RealtimeCount())
}
