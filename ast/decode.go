package ast

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Decode returns the value of the contents of a string literal (template:
// of a template literal's text), delimiters excluded, as the language reads
// them: escapes decoded, line continuations dropped. ok is false for an
// invalid escape.
func Decode(contents string, template bool) (value string, ok bool) {
	return decodeText(contents, template)
}

// decodeText decodes the contents of a string literal or a template chunk
// (delimiters excluded) the way the language reads them: escapes decoded,
// line continuations dropped, invalid UTF-8 read as U+FFFD and, in
// templates, CRLF and CR read as LF. ok is false for an escape that is
// invalid (only possible in tagged templates once esbuild accepted the file).
func decodeText(s string, template bool) (out string, ok bool) {
	var b strings.Builder
	b.Grow(len(s))
	var pendingHigh rune = -1 // a high surrogate waiting for its low half
	flush := func() {
		if pendingHigh >= 0 {
			b.WriteRune(utf8.RuneError)
			pendingHigh = -1
		}
	}
	writeUnit := func(r rune) {
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			flush()
			pendingHigh = r
		case r >= 0xDC00 && r <= 0xDFFF:
			if pendingHigh >= 0 {
				b.WriteRune(0x10000 + (pendingHigh-0xD800)<<10 + (r - 0xDC00))
				pendingHigh = -1
			} else {
				b.WriteRune(utf8.RuneError)
			}
		default:
			flush()
			b.WriteRune(r)
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			flush()
			switch {
			case c == '\r' && template:
				b.WriteByte('\n')
				i++
				if i < len(s) && s[i] == '\n' {
					i++
				}
			case c < 0x80:
				b.WriteByte(c)
				i++
			default:
				r, size := utf8.DecodeRuneInString(s[i:])
				b.WriteRune(r) // RuneError for invalid bytes, as JS decoding does
				i += size
			}
			continue
		}
		i++
		if i >= len(s) {
			return b.String(), false
		}
		c = s[i]
		i++
		switch c {
		case '\n':
			flush()
		case '\r':
			flush()
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case 'b':
			writeUnit('\b')
		case 'f':
			writeUnit('\f')
		case 'n':
			writeUnit('\n')
		case 'r':
			writeUnit('\r')
		case 't':
			writeUnit('\t')
		case 'v':
			writeUnit('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			if c == '0' && (i >= len(s) || !isDigit(s[i])) {
				writeUnit(0)
				break
			}
			if template {
				return b.String(), false
			}
			// Legacy octal escape: up to three digits, value at most 0377.
			v := rune(c - '0')
			maxLen := 2
			if c <= '3' {
				maxLen = 3
			}
			for n := 1; n < maxLen && i < len(s) && s[i] >= '0' && s[i] <= '7'; n++ {
				v = v*8 + rune(s[i]-'0')
				i++
			}
			writeUnit(v)
		case '8', '9':
			if template {
				return b.String(), false
			}
			writeUnit(rune(c))
		case 'x':
			if i+2 > len(s) || !isHex(s[i]) || !isHex(s[i+1]) {
				return b.String(), false
			}
			writeUnit(rune(hexVal(s[i])<<4 | hexVal(s[i+1])))
			i += 2
		case 'u':
			r, n, good := decodeUnicodeEscape(s[i:])
			if !good {
				return b.String(), false
			}
			i += n
			writeUnit(r)
		default:
			if c < 0x80 {
				writeUnit(rune(c))
				break
			}
			r, size := utf8.DecodeRuneInString(s[i-1:])
			i += size - 1
			if r == 0x2028 || r == 0x2029 {
				flush() // line continuation
				break
			}
			writeUnit(r)
		}
	}
	flush()
	return b.String(), true
}

// decodeUnicodeEscape decodes what follows `\u`: XXXX or {X...}.
func decodeUnicodeEscape(s string) (r rune, n int, ok bool) {
	if len(s) > 0 && s[0] == '{' {
		var v rune
		i := 1
		for i < len(s) && s[i] != '}' {
			if !isHex(s[i]) {
				return 0, 0, false
			}
			v = v*16 + rune(hexVal(s[i]))
			if v > 0x10FFFF {
				return 0, 0, false
			}
			i++
		}
		if i >= len(s) || i == 1 {
			return 0, 0, false
		}
		return v, i + 1, true
	}
	if len(s) < 4 {
		return 0, 0, false
	}
	var v rune
	for i := 0; i < 4; i++ {
		if !isHex(s[i]) {
			return 0, 0, false
		}
		v = v*16 + rune(hexVal(s[i]))
	}
	return v, 4, true
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// decodeIdent decodes the \u escapes of an identifier.
func decodeIdent(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == 'u' {
			r, n, ok := decodeUnicodeEscape(s[i+2:])
			if ok {
				b.WriteRune(r)
				i += 2 + n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// parseNumber returns the value of a numeric literal's source text.
func parseNumber(raw string) float64 {
	s := raw
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	s = strings.TrimSuffix(s, "n")
	if len(s) > 1 && s[0] == '0' {
		base := 0
		switch s[1] | 0x20 {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		default:
			// Legacy octal (017) unless a digit 8 or 9 makes it decimal (089).
			if !strings.ContainsAny(s, "89.eE") {
				return parseRadix(s[1:], 8)
			}
		}
		if base != 0 {
			return parseRadix(s[2:], base)
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && v == 0 {
		return math.NaN()
	}
	return v // ±Inf on overflow, as in JS
}

func parseRadix(digits string, base int) float64 {
	if v, err := strconv.ParseUint(digits, base, 64); err == nil {
		return float64(v)
	}
	var n big.Int
	if _, ok := n.SetString(digits, base); !ok {
		return math.NaN()
	}
	f, _ := new(big.Float).SetInt(&n).Float64()
	return f
}

// formatNumber renders v as JavaScript's Number::toString does, so that a
// numeric key reads as the property name the runtime sees (0x10 -> "16").
func formatNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	// Shortest digits and exponent: d.ddde±x
	e := strconv.FormatFloat(v, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	k := len(digits)
	n := exp + 1 // position of the decimal point
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		x := n - 1
		if x < 0 {
			x = -x
		}
		if k == 1 {
			out = digits + "e" + sign + strconv.Itoa(x)
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(x)
		}
	}
	if neg {
		return "-" + out
	}
	return out
}
