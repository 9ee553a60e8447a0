package server

import "fmt"

// The etcd key layout of PD's state. Scalars are decimal strings (so that
// etcdctl shows them), messages are protobuf, the config is JSON.
const (
	keyRoot = "/strata/pd/"
	// keyClusterID holds the cluster id, written once by the first member
	// that starts.
	keyClusterID = keyRoot + "cluster_id"
	// keyLeader holds the leader's pdpb.Member, under its lease.
	keyLeader = keyRoot + "leader"
	// keyTSOLimit holds the TSO window limit (physical ms).
	keyTSOLimit = keyRoot + "tso_limit"
	// keyIDLimit holds the end of the ID window: every ID handed out is
	// at most this.
	keyIDLimit = keyRoot + "alloc_id"
	// keyBootstrapped exists once the cluster is bootstrapped.
	keyBootstrapped = keyRoot + "bootstrapped"
	// keyGCSafePoint holds the GC safe point.
	keyGCSafePoint = keyRoot + "gc_safe_point"
	// keyConfig holds the cluster config (JSON).
	keyConfig = keyRoot + "config"
	// storePrefix and regionPrefix hold one pdpb.Store / kvrpcpb.Region
	// per key, by zero-padded id.
	storePrefix  = keyRoot + "stores/"
	regionPrefix = keyRoot + "regions/"
)

func storeKey(id uint64) string  { return fmt.Sprintf("%s%020d", storePrefix, id) }
func regionKey(id uint64) string { return fmt.Sprintf("%s%020d", regionPrefix, id) }
