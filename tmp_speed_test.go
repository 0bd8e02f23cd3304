package rfc3986_test

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/parser"
)

func cpuNow() time.Time {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Unix(ts.Sec, ts.Nsec)
}

var sinkU rfc3986.URI
var sinkP parser.URI

func BenchmarkTmpParts(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lines, size, _ := benchcorpus.Read("testdata", benchcorpus.Mixed)
	fs := []func(){
		func() {
			for _, s := range lines {
				sinkU, _ = rfc3986.Parse(s)
			}
		},
		func() {
			for _, s := range lines {
				sinkP, _ = parser.ParseReference(s)
			}
		},
		func() {
			for _, s := range lines {
				_ = parser.Validate("URI-reference", s)
			}
		},
	}
	names := []string{"Parse", "parser.ParseReference", "Validate"}
	ts := make([]time.Duration, len(fs))
	i := 0
	for b.Loop() {
		for k := range fs {
			j := (k + i) % len(fs)
			t0 := cpuNow()
			fs[j]()
			ts[j] += cpuNow().Sub(t0)
		}
		i++
	}
	for j := range fs {
		b.ReportMetric(float64(size)*float64(b.N)/float64(ts[j].Nanoseconds()), names[j]+"-B/ns")
	}
}

func BenchmarkTmpShort(b *testing.B) {
	for _, s := range []string{"g", "http://a/b", "http://www.example.com/search?q=rfc+3986&lang=en&page=2#results"} {
		b.Run(s, func(b *testing.B) {
			for b.Loop() {
				sinkU, _ = rfc3986.Parse(s)
			}
		})
		b.Run("validate/"+s, func(b *testing.B) {
			m := parser.RFC3986()
			for b.Loop() {
				_ = m.Validate("URI-reference", s)
			}
		})
	}
}
