package types

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestAccumulateMatchesAdd sums random decimals of mixed scales and
// signs in place and with Add, and compares every step; an overflow of
// DECIMAL(65) fails both ways.
func TestAccumulateMatchesAdd(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	acc := NewDecFromInt(0)
	sum := NewDecFromInt(0)
	for i := 0; i < 2000; i++ {
		s := fmt.Sprintf("%d.%0*d", rng.Int63n(1<<40)-1<<39, rng.Intn(6), rng.Intn(100000))
		if strings.HasSuffix(s, ".") {
			s += "0"
		}
		v, err := ParseDecimal(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := acc.Accumulate(v); err != nil {
			t.Fatal(err)
		}
		if sum, err = sum.Add(v); err != nil {
			t.Fatal(err)
		}
		if acc.String() != sum.String() {
			t.Fatalf("after %d values: in place %s, Add %s", i+1, acc, sum)
		}
	}
	big, _ := ParseDecimal(strings.Repeat("9", 65))
	if err := big.Accumulate(NewDecFromInt(1)); !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow in place: %v", err)
	}
}
