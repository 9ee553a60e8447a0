package types

import "testing"

// FuzzDecodeJSON feeds arbitrary bytes to the decoder of stored JSON
// values: it must fail cleanly, never panic, and whatever it accepts must
// re-encode to a value that decodes back equal and encodes again to the
// same bytes (the accepted bytes themselves may be spelled differently:
// a decimal's "+1", a varint with padding).
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, "x", null, true]}`, `[]`, `18446744073709551615`, `"é"`} {
		j, _ := ParseJSON(s)
		f.Add(EncodeJSON(nil, &j))
	}
	f.Add([]byte{jbArray, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{jbObject, 2, 1, 'b', jbNull, 1, 'a', jbNull})
	f.Add([]byte{jbDecimal, 2, '+', '1'})
	f.Add([]byte("\a\x1001000E0000010000")) // a decimal that does not fit: NaN, corrupt
	f.Fuzz(func(t *testing.T, b []byte) {
		j, err := DecodeJSON(b)
		if err != nil {
			return
		}
		back := EncodeJSON(nil, &j)
		j2, err := DecodeJSON(back)
		if err != nil {
			t.Fatalf("re-encoding of an accepted value is corrupt: %v", err)
		}
		if CompareJSON(&j, &j2) != 0 {
			t.Fatalf("%s re-encodes as %s", j, j2)
		}
		if again := EncodeJSON(nil, &j2); string(again) != string(back) {
			t.Fatalf("%s: encoding is not stable: %x, then %x", j, back, again)
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
