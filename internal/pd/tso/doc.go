// Package tso allocates cluster timestamps: physical_ms<<18 | logical.
//
// The allocator is a deterministic core: the caller passes the clock and
// the WindowStore that persists the high-water mark, so tests drive it with
// a fake clock and an in-memory store.
//
// # Invariants
//
//   - Every timestamp handed out is strictly greater than every timestamp
//     handed out before it, by this allocator or by any earlier allocator
//     over the same WindowStore (a restarted process, a new PD leader).
//   - Before serving a timestamp whose physical part is p, the allocator has
//     persisted a window limit L > p through WindowStore.Save (L = p+Window,
//     default 3 s). A new allocator starts at physical max(now, L) with
//     logical 0, so its first timestamp is above anything served under L.
//   - The clock going backwards never makes timestamps go back: the physical
//     part only moves up; while the clock is behind, logical counts on.
//   - Logical overflow (2^18 timestamps in one millisecond) advances the
//     physical part by one millisecond instead of waiting for the clock; the
//     window keeps that drift safe across restarts.
//
// # Lock order
//
// Allocator.mu is the only lock. WindowStore.Save runs under it: saving is
// rare (about once per Window/3) and must finish before any timestamp of
// the new window is served.
package tso
