package syntax

// The guide's memo tables. A guide asks and records, per parse, hundreds
// of thousands of answers keyed by small integers (a frame, a state, a
// position). Go maps cost there what their generality costs: per-frame
// maps that start empty and rehash as they grow, hashing through the
// runtime, and growth that allocates and clears. Measured on RFC 5322
// messages, maps took about a quarter of the guide's time. These tables
// are open-addressed with linear probing over one array each, at most
// half full, with a multiplicative hash; nothing is ever removed (an
// answer is forgotten by marking it so), so a probe stops at the first
// empty slot.

// hashMul is 2⁶⁴ divided by the golden ratio: Fibonacci hashing, whose
// high bits mix every bit of the key.
const hashMul = 0x9E3779B97F4A7C15

// u64Table maps uint64 keys to values of V. The zero table is empty and
// ready to use.
type u64Table[V any] struct {
	keys  []uint64 // key+1, 0 for an empty slot
	vals  []V
	n     int
	shift uint8 // 64 - log2(len(keys))
	hint  int   // the slots to begin with: see sizeFor
}

// get returns the value of key k, and whether it has one.
func (t *u64Table[V]) get(k uint64) (V, bool) {
	if t.n > 0 {
		mask := len(t.keys) - 1
		for i := int((k * hashMul) >> t.shift); ; i = (i + 1) & mask {
			switch t.keys[i] {
			case k + 1:
				return t.vals[i], true
			case 0:
				var zero V
				return zero, false
			}
		}
	}
	var zero V
	return zero, false
}

// put sets the value of key k to v.
func (t *u64Table[V]) put(k uint64, v V) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := len(t.keys) - 1
	for i := int((k * hashMul) >> t.shift); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k + 1:
			t.vals[i] = v
			return
		case 0:
			t.keys[i], t.vals[i] = k+1, v
			t.n++
			return
		}
	}
}

// reset empties the table for about hint keys: it keeps its slots if it
// has from the size hint asks for to four times that, and drops them
// otherwise.
func (t *u64Table[V]) reset(hint int) {
	t.hint, t.n = hint, 0
	if want := sizeFor(hint); len(t.keys) < want || len(t.keys) > 4*want {
		t.keys, t.vals = nil, nil
		return
	}
	clear(t.keys) // the values of empty slots are never read
}

// grow doubles the table (to 64 slots at first) and reinserts its keys.
func (t *u64Table[V]) grow() {
	size := max(2*len(t.keys), sizeFor(t.hint))
	keys, vals := t.keys, t.vals
	t.keys, t.vals, t.n = make([]uint64, size), make([]V, size), 0
	t.shift = uint8(64 - log2(size))
	for i, k := range keys {
		if k != 0 {
			t.put(k-1, vals[i])
		}
	}
}

// sizeFor is the first size of a table expected to hold about n keys:
// the power of two from 64 to 64 Ki slots that keeps it at most half full.
// A guide sizes its tables by the input's length (entries per byte, as
// measured on RFC 5322 messages), so that they rarely grow: growing was
// a fifth of their cost.
func sizeFor(n int) int {
	size := 64
	for size < 2*n && size < 1<<16 {
		size *= 2
	}
	return size
}

// log2 is the base-2 logarithm of n, a power of two.
func log2(n int) int {
	l := 0
	for n > 1 {
		n >>= 1
		l++
	}
	return l
}

// answerTable holds the answers of the guide's frames: per canonical frame
// (by its id) and (state, position) key, whether the frame can end where
// its callers complete. An answer can be forgotten (a shared search's true
// answers, see node.run) and set again.
type answerTable struct {
	slots []answerSlot
	n     int
	shift uint8
	hint  int
}

type answerSlot struct {
	k  uint64 // the (state, position) key
	id uint32 // the frame's id
	v  uint8  // 0: empty slot; answerFalse, answerTrue, or answerForgotten
	d  uint8  // how deep into the frame's continuation the answer looked (see Guide.known)
}

const (
	answerFalse = 1 + iota
	answerTrue
	answerForgotten
)

func (t *answerTable) hash(id uint32, k uint64) int {
	return int(((k ^ uint64(id)*0xC2B2AE3D27D4EB4F) * hashMul) >> t.shift)
}

// get returns frame id's answer under k with its depth, and whether it
// has one.
func (t *answerTable) get(id uint32, k uint64) (v bool, d uint8, ok bool) {
	if t.n == 0 {
		return false, 0, false
	}
	mask := len(t.slots) - 1
	for i := t.hash(id, k); ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch {
		case s.v == 0:
			return false, 0, false
		case s.k == k && s.id == id:
			return s.v == answerTrue, s.d, s.v != answerForgotten
		}
	}
}

// put sets frame id's answer under k to v, of depth d; forget marks it
// unknown.
func (t *answerTable) put(id uint32, k uint64, v bool, d uint8) {
	a := uint8(answerFalse)
	if v {
		a = answerTrue
	}
	t.set(id, k, a, d)
}

func (t *answerTable) forget(id uint32, k uint64) { t.set(id, k, answerForgotten, 0) }

func (t *answerTable) set(id uint32, k uint64, a, d uint8) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	for i := t.hash(id, k); ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch {
		case s.v == 0:
			*s = answerSlot{k, id, a, d}
			t.n++
			return
		case s.k == k && s.id == id:
			s.v, s.d = a, d
			return
		}
	}
}

// reset empties the table, as u64Table.reset does.
func (t *answerTable) reset(hint int) {
	t.hint, t.n = hint, 0
	if want := sizeFor(hint); len(t.slots) < want || len(t.slots) > 4*want {
		t.slots = nil
		return
	}
	clear(t.slots)
}

func (t *answerTable) grow() {
	size := max(2*len(t.slots), sizeFor(t.hint))
	old := t.slots
	t.slots, t.n = make([]answerSlot, size), 0
	t.shift = uint8(64 - log2(size))
	for _, s := range old {
		if s.v != 0 {
			t.set(s.id, s.k, s.v, s.d)
		}
	}
}
