package meta

import "errors"

// Errors of the metadata store. Callers check them with errors.Is; the PD
// server maps them to pdpb error types.
var (
	// ErrStaleRegion: a region report carries an epoch (or term) older
	// than what PD already knows for that region or for a region it
	// overlaps.
	ErrStaleRegion = errors.New("meta: stale region")
	// ErrRegionNotFound: no region with that id is known.
	ErrRegionNotFound = errors.New("meta: region not found")
	// ErrInvalidRegion: a region without an id, without peers, or with an
	// end key not above its start key.
	ErrInvalidRegion = errors.New("meta: invalid region")
	// ErrStoreNotFound: no store with that id is registered.
	ErrStoreNotFound = errors.New("meta: store not found")
	// ErrStoreTombstone: the store was removed for good and cannot come
	// back under the same id.
	ErrStoreTombstone = errors.New("meta: store is tombstone")
	// ErrInvalidStore: a store without an id or an address.
	ErrInvalidStore = errors.New("meta: invalid store")
	// ErrAddressTaken: another store that is not a tombstone already uses
	// the address.
	ErrAddressTaken = errors.New("meta: store address already in use")
	// ErrInvalidConfig: a cluster config update names an unknown key or
	// gives a value of the wrong type or out of range.
	ErrInvalidConfig = errors.New("meta: invalid config")
)
