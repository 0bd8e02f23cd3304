package abnf_test

import (
	"fmt"

	"github.com/peguri/rfc3986/abnf"
)

func ExampleDiagnoser() {
	g, err := abnf.ReadString("uri.abnf", "pair = key \"=\" value\nkey = 1*ALPHA\nvalue = 1*DIGIT\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	d := abnf.NewDiagnoser(g)
	x, _ := d.Diagnose("pair", "abc=12x")
	fmt.Println(x.Offset, x.Found, x.Rule, x.Next)
	fmt.Println(x.Chain)
	// Output:
	// 6 "x" value [DIGIT end of input]
	// [{pair 0}]
}

func ExampleDiagnoser_Begin() {
	g, _ := abnf.ReadString("g.abnf", "s = \"a\" *\"b\" \"c\"\n")
	d := abnf.NewDiagnoser(g)
	p, _ := d.Begin("s")
	for _, b := range []byte("ab") {
		p = p.Next(b) // one byte at a time: each step costs one step
	}
	x, _ := p.Diagnose()
	fmt.Println(x.Offset, x.Match, x.Next)
	// Output: 2 false ["b" "c"]
}
