package peg_test

import (
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

func ExampleTranslate() {
	// "1" is a prefix of "10": in PEG's ordered choice, "1" / "10" never
	// tries "10". The translator proves which orders are safe, reorders
	// where the alternatives' languages allow, and reports why.
	g, _ := abnf.ReadString("octets.abnf", "pair = octet \".\" octet\noctet = \"1\" / \"10\" / \"2\"\n")
	res, err := peg.Translate(g, peg.Options{Start: []string{"pair"}, Package: "octets"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range res.Report.Items {
		fmt.Printf("%s %s: %s\n", it.Kind, it.Rule, it.Msg)
	}
	for _, line := range strings.Split(string(res.PEG), "\n") {
		if strings.HasPrefix(line, "octet ") {
			fmt.Println(line)
		}
	}
	fmt.Println(res.Entries["pair"])
	// Output:
	// reorder octet: alternatives reordered to "10" / [1-2]: a string of a later alternative had a proper prefix in an earlier one, so the earlier would commit; they are disjoint in context, so the order does not change which alternative an input belongs to
	// proven octet: alternative 2 ("10"): exact as emitted
	// order octet: order-sensitive: in reverse order, alternative 1 ([1-2]) would commit wrongly
	// octet "octet" <- v:("10" / [12]) {
	// E_pair
}
