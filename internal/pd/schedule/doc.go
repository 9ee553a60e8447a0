// Package schedule is PD's scheduling core: the replica checker that
// keeps every region at max-replicas healthy voters, the schedulers that
// balance leaders and regions across stores, and the operators through
// which both change regions, one step per region heartbeat.
//
//	 region heartbeat (PD server)             Coordinator.Run: every tick
//	            │                                         │
//	            ▼                                         ▼
//	Coordinator.HandleRegionHeartbeat            Coordinator.Tick
//	   │ 1. Controller.Dispatch(region)            │ timeouts
//	   │ 2. if no operator: replica checker        │ replica checker over all regions
//	   ▼                                           │ balance-leader, balance-region
//	Controller: one Operator per region ◄──────────┘
//	   │ next step as a RegionHeartbeatResponse
//	   ▼
//	the region's leader (raftstore HandleRegionHeartbeatResponse)
//
// # Operators
//
// An Operator is an ordered list of steps for one region: AddLearner,
// PromoteLearner, RemovePeer, TransferLeader (see step.go). It remembers
// the region epoch it was made for. Operator.Check compares it with a
// region as reported: it skips the steps the region shows done and
// returns the next one. A step is done only when the region shows it,
// never because it was sent: a new learner is done once it is there and
// no longer pending (it has its snapshot), a promotion once the peer is a
// voter, a removal once the peer is gone, a transfer once the leader is on
// the target store. The Controller sends the current step on every
// heartbeat until the region shows it applied (responses may be lost,
// proposals refused; the store ignores a step for an older epoch), and
// does not resend a step that applied but is not done (a learner catching
// up), which would bump conf_ver again.
//
// An operator is cancelled when the region's epoch moved in a way its own
// steps do not explain: any version change (a split or merge), or a
// conf_ver above the operator's epoch plus the conf changes of its steps
// that the region shows applied (PD's checkStaleOperator; see the
// raftstore reference §3). It is also cancelled when a step became
// impossible (the target store holds another peer of the region, the
// learner to promote is gone) or a store it adds a peer to, or moves
// leadership to, is lost. It times out after Options.PeerMoveTimeout (10
// min) when it moves peers, Options.LeaderTransferTimeout (10 s) when it
// only moves leadership. Retired operators go to a bounded history.
//
// # Invariants
//
//   - At most one operator per region. A new one is refused
//     (ErrOperatorExists) unless it has a higher priority (admin >
//     replica repair > balance), which replaces the old one
//     (StatusReplaced).
//   - Add before remove: a moved or replaced peer is added as a learner,
//     caught up, promoted, and only then is the old peer removed, so a
//     region never has fewer healthy voters than it started with during a
//     move. The Controller also holds back a removal that would leave
//     fewer than a quorum of the remaining voters healthy (not reported
//     down or pending, store not lost).
//   - The leader is never removed directly: operators that remove the
//     leader's peer transfer leadership first, and when leadership moved
//     back meanwhile, the Controller sends a transfer to a healthy voter
//     instead of the removal (the store would refuse it anyway).
//   - Concurrency limits: leader-, region- and replica-schedule-limit
//     bound the running operators of each kind (admin operators are not
//     limited); Options.StoreLimit bounds the peers being added to one
//     store.
//   - Deterministic: the clock and the ID allocator are parameters
//     (Options.Now, Options.AllocID); stores are visited by id and regions
//     in key order; nothing reads the time but through Options.Now, and
//     only Coordinator.Run starts a goroutine.
//
// # Replica checker (replica_checker.go)
//
// Store states (StoreStateOf): up; disconnected when silent longer than
// Options.DisconnectDuration (no new peers, no balancing); down when
// silent longer than max-store-down-time (its peers are replaced);
// offline and tombstone stores lose their peers too. Heartbeat ages count
// from Options.Since at the latest, so a new PD leader gives every store
// max-store-down-time before it declares it down. The checker, in order:
// removes learners on lost stores; removes a voter beyond max-replicas
// (the worst by store state and reports, never the leader without a
// transfer); replaces a voter on a lost store; promotes a caught-up
// learner left behind or adds a learner then promotes it when voters are
// missing; removes a leftover learner. New peers go to the best store
// that is up, below the store limit and holds no peer of the region:
// best isolated by the location labels (PD's distinct score), then
// fewest regions, then most free space.
//
// # Schedulers (balance_leader.go, balance_region.go)
//
// Counts come from a scan of the region tree plus the influence of the
// running operators' remaining steps, so several operators made in one
// tick do not all pick the same store. balance-leader transfers a leader
// from the store leading the most regions to the one leading the fewest
// when they differ by more than Options.LeaderTolerance, choosing a region
// with a healthy voter on the target. balance-region moves a peer from the
// store holding the most regions to the one holding the fewest (by more
// than Options.RegionTolerance): add learner, promote, transfer leadership
// if the source leads, remove. Both wait after a PD leader change until
// every region reported its leader, or Options.WarmUp passed.
//
// # Wiring in the PD server
//
// On becoming leader, the server builds a Coordinator over its
// meta.Cluster with the term's clock, ID allocator and config:
//
//	coord := schedule.NewCoordinator(t.cluster, schedule.Options{
//		Now:     time.Now,
//		AllocID: func() (uint64, error) { return t.ids.alloc(1) },
//		Config:  t.clusterConfig,
//		Send:    s.SendToStore, // optional: first steps at once
//		Logger:  s.log,
//	})
//	s.SetHeartbeatHook(coord.HandleRegionHeartbeat)
//	go coord.Run(t.ctx) // ends with the term
//
// and serves GET /pd/api/v1/operators from
// coord.Controller().Operators() (History for finished ones). A bare
// Controller.Dispatch also works as the hook when checkers only run on
// ticks. The wiring itself is the PD server's.
//
// # Lock order
//
// Coordinator.mu (the cached region counts) is held only to read or swap
// them, never while calling anything. Controller.mu is held while the
// Controller calls Options.Config, Options.Now, the Logger and, inside a
// Coordinator, Cluster.Store (the lost-store check): those must not call
// back into the scheduler. Options.AllocID and Options.Send are called
// without any scheduler lock held.
package schedule
