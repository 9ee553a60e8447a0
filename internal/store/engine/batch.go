package engine

// OpKind is the kind of a batch operation.
type OpKind byte

// Batch operation kinds.
const (
	OpPut    OpKind = 'P'
	OpDelete OpKind = 'D'
)

// Op is one operation of a Batch.
type Op struct {
	Kind  OpKind
	Key   []byte
	Value []byte // nil for OpDelete
}

// Batch is an engine-neutral, ordered list of writes applied atomically by
// Engine.Write. Later operations on the same key win. Put and Delete keep
// references to the slices passed in: callers must not modify them after.
type Batch struct {
	ops  []Op
	size int
	// NoSync: losing this batch in a crash is safe (pessimistic locks:
	// a lost one aborts its transaction at prewrite), so Write need not
	// wait for the fsync even when the engine syncs.
	NoSync bool
}

// Put appends a put of key=value.
func (b *Batch) Put(key, value []byte) {
	b.ops = append(b.ops, Op{Kind: OpPut, Key: key, Value: value})
	b.size += len(key) + len(value)
}

// Delete appends a point delete of key.
func (b *Batch) Delete(key []byte) {
	b.ops = append(b.ops, Op{Kind: OpDelete, Key: key})
	b.size += len(key)
}

// Add appends op.
func (b *Batch) Add(op Op) {
	b.ops = append(b.ops, op)
	b.size += len(op.Key) + len(op.Value)
}

// Len returns the number of operations.
func (b *Batch) Len() int { return len(b.ops) }

// Empty reports whether the batch has no operations.
func (b *Batch) Empty() bool { return len(b.ops) == 0 }

// Size returns the total bytes of keys and values.
func (b *Batch) Size() int { return b.size }

// Ops returns the operations in order. The slice is the batch's own.
func (b *Batch) Ops() []Op { return b.ops }

// Append adds all of o's operations after b's.
func (b *Batch) Append(o *Batch) {
	b.ops = append(b.ops, o.ops...)
	b.size += o.size
}

// Reset empties the batch, keeping its capacity.
func (b *Batch) Reset() {
	clear(b.ops)
	b.ops = b.ops[:0]
	b.size = 0
	b.NoSync = false
}
