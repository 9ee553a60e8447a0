package pdctl

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"
)

// Operator is one scheduling operator as PD's /pd/api/v1/operators lists
// it. The decoding is lenient about field names (region_id or region,
// desc or description, create_time or created, ...) so that it reads
// PD's shape and Strata's.
type Operator struct {
	RegionID uint64
	Kind     string
	Name     string
	Desc     string
	Status   string
	Created  time.Time     // zero when unknown
	Age      time.Duration // used when Created is zero; -1 when unknown
}

// DecodeOperators reads a JSON list of operators, or an object whose
// "operators" field is one.
func DecodeOperators(raw []byte) ([]Operator, error) {
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); err != nil {
		var obj struct {
			Operators []map[string]any `json:"operators"`
		}
		if err2 := json.Unmarshal(raw, &obj); err2 != nil {
			return nil, fmt.Errorf("decode operators: %w", err)
		}
		list = obj.Operators
	}
	out := make([]Operator, 0, len(list))
	for _, m := range list {
		op := Operator{
			Kind: str(m, "kind"), Name: str(m, "name", "brief"),
			Desc: str(m, "desc", "description", "steps"), Status: str(m, "status"), Age: -1,
		}
		if n, ok := num(m, "region_id", "region"); ok {
			op.RegionID = uint64(n)
		}
		if t, err := time.Parse(time.RFC3339Nano, str(m, "create_time", "created", "created_at")); err == nil {
			op.Created = t
		} else if n, ok := num(m, "age_seconds", "age"); ok {
			op.Age = time.Duration(n * float64(time.Second))
		}
		out = append(out, op)
	}
	return out, nil
}

func str(m map[string]any, keys ...string) string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ""
}

func num(m map[string]any, keys ...string) (float64, bool) {
	for _, k := range keys {
		switch v := m[k].(type) {
		case float64:
			return v, true
		case string:
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				return f, true
			}
		}
	}
	return 0, false
}

// WriteOperators prints one line per operator: region, kind, description,
// status and age (relative to now).
func WriteOperators(w io.Writer, ops []Operator, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REGION\tKIND\tDESCRIPTION\tSTATUS\tAGE")
	for _, op := range ops {
		desc := op.Desc
		switch {
		case op.Name != "" && desc != "":
			desc = op.Name + ": " + desc
		case desc == "":
			desc = op.Name
		}
		age := "-"
		switch {
		case !op.Created.IsZero():
			age = formatAge(now.Sub(op.Created))
		case op.Age >= 0:
			age = formatAge(op.Age)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", op.RegionID, dash(op.Kind), dash(desc), dash(op.Status), age)
	}
	fmt.Fprintf(tw, "(%s)\n", count(len(ops), "operator"))
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
