// Package findex makes and checks the fractional indices Excalidraw stores
// in each element's `index` field.
//
// Since 0.17 Excalidraw orders elements by `index`, a string that sorts
// (byte-wise, like JavaScript's `<` on ASCII) between its neighbours, so
// that inserting an element between two others touches only the new one.
// The format is the one of the `fractional-indexing` npm package that
// Excalidraw uses: base-62 digits (0-9, A-Z, a-z, in ASCII order), an
// "integer" part whose first character encodes its length (a..z for
// non-negative, A..Z for negative integers), then an optional fraction that
// never ends in '0'. This package reimplements that format from its
// description.
package findex

import (
	"errors"
	"fmt"
	"strings"
)

const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// smallestInteger sorts before every valid key and is itself not valid:
// nothing could ever be placed before it.
var smallestInteger = "A" + strings.Repeat("0", 26)

// ErrInvalid reports a key that is not a fractional index.
var ErrInvalid = errors.New("findex: invalid key")

func digitValue(c byte) int { return strings.IndexByte(digits, c) }

// integerLength is the length of the integer part announced by its head.
func integerLength(head byte) (int, error) {
	switch {
	case head >= 'a' && head <= 'z':
		return int(head-'a') + 2, nil
	case head >= 'A' && head <= 'Z':
		return int('Z'-head) + 2, nil
	}
	return 0, fmt.Errorf("%w: head %q", ErrInvalid, head)
}

// split returns the integer and fraction parts of a key.
func split(key string) (integer, fraction string, err error) {
	if key == "" {
		return "", "", fmt.Errorf("%w: empty", ErrInvalid)
	}
	n, err := integerLength(key[0])
	if err != nil {
		return "", "", err
	}
	if n > len(key) {
		return "", "", fmt.Errorf("%w: %q is shorter than its head announces", ErrInvalid, key)
	}
	return key[:n], key[n:], nil
}

// Validate reports whether key is a usable fractional index.
func Validate(key string) error {
	if key == smallestInteger {
		return fmt.Errorf("%w: %q is the reserved smallest key", ErrInvalid, key)
	}
	i, f, err := split(key)
	if err != nil {
		return err
	}
	for k := 1; k < len(i); k++ {
		if digitValue(i[k]) < 0 {
			return fmt.Errorf("%w: %q has a non base-62 digit", ErrInvalid, key)
		}
	}
	for k := 0; k < len(f); k++ {
		if digitValue(f[k]) < 0 {
			return fmt.Errorf("%w: %q has a non base-62 digit", ErrInvalid, key)
		}
	}
	if strings.HasSuffix(f, "0") {
		return fmt.Errorf("%w: %q has a trailing zero", ErrInvalid, key)
	}
	return nil
}

// Between returns a key strictly between a and b. An empty a means "before
// everything", an empty b "after everything".
func Between(a, b string) (string, error) {
	if a != "" {
		if err := Validate(a); err != nil {
			return "", err
		}
	}
	if b != "" {
		if err := Validate(b); err != nil {
			return "", err
		}
	}
	if a != "" && b != "" && a >= b {
		return "", fmt.Errorf("findex: %q is not before %q", a, b)
	}
	switch {
	case a == "" && b == "":
		return "a0", nil
	case a == "":
		ib, fb, _ := split(b)
		if ib == smallestInteger {
			return ib + midpoint("", fb), nil
		}
		if ib < b {
			return ib, nil
		}
		d, ok := decrementInteger(ib)
		if !ok {
			return "", errors.New("findex: cannot go before the smallest key")
		}
		return d, nil
	case b == "":
		ia, fa, _ := split(a)
		if i, ok := incrementInteger(ia); ok {
			return i, nil
		}
		return ia + midpoint(fa, ""), nil
	}
	ia, fa, _ := split(a)
	ib, fb, _ := split(b)
	if ia == ib {
		return ia + midpoint(fa, fb), nil
	}
	i, ok := incrementInteger(ia)
	if !ok {
		return "", errors.New("findex: cannot go after the largest key")
	}
	if i < b {
		return i, nil
	}
	return ia + midpoint(fa, ""), nil
}

// N returns n keys in ascending order strictly between a and b, spread so
// that the keys stay short.
func N(a, b string, n int) ([]string, error) {
	if n <= 0 {
		return nil, nil
	}
	if n == 1 {
		k, err := Between(a, b)
		if err != nil {
			return nil, err
		}
		return []string{k}, nil
	}
	if b == "" {
		out := make([]string, 0, n)
		prev := a
		for range n {
			k, err := Between(prev, "")
			if err != nil {
				return nil, err
			}
			out = append(out, k)
			prev = k
		}
		return out, nil
	}
	if a == "" {
		out := make([]string, n)
		next := b
		for i := n - 1; i >= 0; i-- {
			k, err := Between("", next)
			if err != nil {
				return nil, err
			}
			out[i] = k
			next = k
		}
		return out, nil
	}
	mid := n / 2
	c, err := Between(a, b)
	if err != nil {
		return nil, err
	}
	left, err := N(a, c, mid)
	if err != nil {
		return nil, err
	}
	right, err := N(c, b, n-mid-1)
	if err != nil {
		return nil, err
	}
	out := append(left, c)
	return append(out, right...), nil
}

// midpoint returns a fraction strictly between fractions a and b ("" for b
// means 1). Neither has trailing zeros; a < b.
func midpoint(a, b string) string {
	if b != "" {
		// Skip the common prefix, padding a with zeros.
		n := 0
		for n < len(b) {
			ca := byte('0')
			if n < len(a) {
				ca = a[n]
			}
			if ca != b[n] {
				break
			}
			n++
		}
		if n > 0 {
			rest := ""
			if n < len(a) {
				rest = a[n:]
			}
			return b[:n] + midpoint(rest, b[n:])
		}
	}
	da := 0
	if a != "" {
		da = digitValue(a[0])
	}
	db := len(digits)
	if b != "" {
		db = digitValue(b[0])
	}
	if db-da > 1 {
		return string(digits[(da+db+1)/2])
	}
	// Adjacent first digits.
	if len(b) > 1 {
		return b[:1]
	}
	rest := ""
	if len(a) > 1 {
		rest = a[1:]
	}
	return string(digits[da]) + midpoint(rest, "")
}

// incrementInteger returns the next integer part, or false past the
// largest ("z" followed by 26 'z').
func incrementInteger(x string) (string, bool) {
	head, ds := x[0], []byte(x[1:])
	carry := true
	for i := len(ds) - 1; carry && i >= 0; i-- {
		d := digitValue(ds[i]) + 1
		if d == len(digits) {
			ds[i] = '0'
		} else {
			ds[i] = digits[d]
			carry = false
		}
	}
	if !carry {
		return string(head) + string(ds), true
	}
	switch {
	case head == 'Z':
		return "a0", true
	case head == 'z':
		return "", false
	}
	h := head + 1
	if h > 'a' {
		ds = append(ds, '0')
	} else {
		ds = ds[:len(ds)-1]
	}
	return string(h) + string(ds), true
}

// decrementInteger returns the previous integer part, or false below the
// smallest.
func decrementInteger(x string) (string, bool) {
	head, ds := x[0], []byte(x[1:])
	borrow := true
	for i := len(ds) - 1; borrow && i >= 0; i-- {
		d := digitValue(ds[i]) - 1
		if d == -1 {
			ds[i] = 'z'
		} else {
			ds[i] = digits[d]
			borrow = false
		}
	}
	if !borrow {
		return string(head) + string(ds), true
	}
	switch {
	case head == 'a':
		return "Zz", true
	case head == 'A':
		return "", false
	}
	h := head - 1
	if h < 'Z' {
		ds = append(ds, 'z')
	} else {
		ds = ds[:len(ds)-1]
	}
	return string(h) + string(ds), true
}

// CheckOrder returns the positions i where keys[i] is missing, invalid, or
// not strictly greater than keys[i-1] — the elements Excalidraw's restore
// would re-index.
func CheckOrder(keys []string) []int {
	var bad []int
	prev := ""
	for i, k := range keys {
		if Validate(k) != nil || (prev != "" && k <= prev) {
			bad = append(bad, i)
			continue
		}
		prev = k
	}
	return bad
}
