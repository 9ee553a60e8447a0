package session

import (
	"context"
	"time"
)

// DefaultSyncInterval is how often a SQL server looks for other servers'
// schema, GLOBAL variable and privilege changes.
const DefaultSyncInterval = time.Second

// SyncLoop keeps this server's schema, GLOBAL variables, accounts and
// statistics current with the changes other SQL servers of the cluster
// make: every interval it reads their version keys and reloads what
// moved. It also flushes this server's modification counts and starts
// automatic ANALYZEs (stats_domain.go). It runs until ctx ends.
func (d *Domain) SyncLoop(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		interval = DefaultSyncInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := d.catalog.Refresh(ctx); err != nil && ctx.Err() == nil {
			d.log.Warn("schema sync failed", "err", err)
		}
		if _, err := d.globals.Refresh(ctx); err != nil && ctx.Err() == nil {
			d.log.Warn("global variable sync failed", "err", err)
		}
		d.applyTSOMode()
		if err := d.privs.Refresh(ctx); err != nil && ctx.Err() == nil {
			d.log.Warn("privilege sync failed", "err", err)
		}
		d.syncStats(ctx)
	}
}
