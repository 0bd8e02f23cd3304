package lines_test

import (
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/internal/lines"
)

func ExampleOrdered() {
	var in strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&in, "line %d\n", i)
	}
	// Each chunk is counted on one of four goroutines; the counts come
	// back in input order.
	var sizes []int
	total := 0
	err := lines.Ordered(strings.NewReader(in.String()), 1<<20, 4, func(ls []lines.Line) int {
		return len(ls)
	}, func(n int) error {
		sizes = append(sizes, n)
		total += n
		return nil
	})
	fmt.Println(sizes, total, err)
	// Output:
	// [512 512 512 464] 2000 <nil>
}
