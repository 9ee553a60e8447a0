package types

import "testing"

// FuzzDecodeJSON feeds arbitrary bytes to the decoder of stored JSON
// values: it must fail cleanly, never panic, and whatever it accepts must
// encode back to the same bytes.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, "x", null, true]}`, `[]`, `18446744073709551615`, `"é"`} {
		j, _ := ParseJSON(s)
		f.Add(EncodeJSON(nil, &j))
	}
	f.Add([]byte{jbArray, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{jbObject, 2, 1, 'b', jbNull, 1, 'a', jbNull})
	f.Fuzz(func(t *testing.T, b []byte) {
		j, err := DecodeJSON(b)
		if err != nil {
			return
		}
		if back := EncodeJSON(nil, &j); string(back) != string(b) {
			// Decimals may be re-spelled ("1.0" and "1.00" are kept, but
			// "+1" is not); anything else must round-trip.
			if _, err := DecodeJSON(back); err != nil {
				t.Fatalf("re-encoding of an accepted value is corrupt: %v", err)
			}
		}
		_ = j.String()
	})
}

// FuzzParseJSON checks that the text parser never panics and that what it
// accepts prints as text it accepts again, to the same value.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\u00e9\n"`, `-1.5e-3`, `[`, `{"a"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		j, err := ParseJSON(s)
		if err != nil {
			return
		}
		back, err := ParseJSON(j.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, j.String(), err)
		}
		if CompareJSON(&j, &back) != 0 {
			t.Fatalf("%q: %s reads back as %s", s, j, back)
		}
	})
}
