package syntax

import (
	"math/rand/v2"
	"testing"
)

// TestTables holds the guide's tables to Go maps under random operations,
// with keys drawn from a small range (so that they repeat, and probe
// chains collide) and from all of uint64, across their growth.
func TestTables(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  func(r *rand.Rand) uint64
		hint int
	}{
		{"dense", func(r *rand.Rand) uint64 { return r.Uint64N(3000) }, 0},
		{"pairs", func(r *rand.Rand) uint64 { return pair(int32(r.IntN(600)), int32(r.IntN(40))) }, 1200},
		{"wide", func(r *rand.Rand) uint64 { return r.Uint64() }, 10},
		{"top", func(r *rand.Rand) uint64 { return ^r.Uint64N(100) - 1 }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			u := u64Table[int32]{hint: tc.hint}
			a := answerTable{hint: tc.hint}
			type ak struct {
				id uint32
				k  uint64
			}
			wantU := map[uint64]int32{}
			type av struct {
				v bool
				d uint8
			}
			wantA := map[ak]av{}
			for i := range 20000 {
				k := tc.key(r)
				id := uint32(r.IntN(50))
				switch r.IntN(4) {
				case 0:
					v := int32(r.Int32())
					u.put(k, v)
					wantU[k] = v
				case 1:
					v, d := r.IntN(2) == 0, uint8(r.IntN(256))
					a.put(id, k, v, d)
					wantA[ak{id, k}] = av{v, d}
				case 2:
					a.forget(id, k)
					delete(wantA, ak{id, k})
				}
				if w, wok := wantU[k]; true {
					if v, ok := u.get(k); v != w || ok != wok {
						t.Fatalf("op %d: u64Table.get(%#x) = %d, %v; want %d, %v", i, k, v, ok, w, wok)
					}
				}
				w, wok := wantA[ak{id, k}]
				if v, d, ok := a.get(id, k); v != w.v || d != w.d || ok != wok {
					t.Fatalf("op %d: answerTable.get(%d, %#x) = %v, %d, %v; want %v, %d, %v", i, id, k, v, d, ok, w.v, w.d, wok)
				}
			}
			if u.n != len(wantU) {
				t.Errorf("u64Table holds %d keys, want %d", u.n, len(wantU))
			}
			for k, v := range wantU {
				if got, ok := u.get(k); !ok || got != v {
					t.Errorf("u64Table.get(%#x) = %d, %v at the end; want %d", k, got, ok, v)
				}
			}
			for k, v := range wantA {
				if got, d, ok := a.get(k.id, k.k); !ok || got != v.v || d != v.d {
					t.Errorf("answerTable.get(%d, %#x) = %v, %d, %v at the end; want %v, %d", k.id, k.k, got, d, ok, v.v, v.d)
				}
			}
		})
	}
}

func TestSizeFor(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{0, 64}, {32, 64}, {33, 128}, {1000, 2048}, {1 << 20, 1 << 16}} {
		if got := sizeFor(tc.n); got != tc.want {
			t.Errorf("sizeFor(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
