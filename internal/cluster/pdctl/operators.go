package pdctl

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"
)

// Operator is one scheduling operator as PD's /pd/api/v1/operators (and
// .../operators/history) lists it. The decoding is lenient about field
// names (region_id or region, desc or description, created or
// create_time, age as a duration string or seconds) so that it reads
// Strata's shape (internal/pd/schedule's OperatorView) and PD's.
type Operator struct {
	RegionID uint64
	Kind     string
	Name     string
	Desc     string
	Status   string
	// Reason says why an operator that did not finish stopped.
	Reason string
	// Step is the index of the first step not done, Steps the count (0
	// when unknown).
	Step, Steps int
	Created     time.Time     // zero when unknown
	Age         time.Duration // PD's own figure; -1 when not given
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
			Kind: str(m, "kind"), Name: str(m, "name", "brief"), Desc: str(m, "desc", "description"),
			Status: str(m, "status"), Reason: str(m, "reason"), Age: -1,
		}
		if n, ok := num(m, "region_id", "region"); ok {
			op.RegionID = uint64(n)
		}
		if n, ok := num(m, "step"); ok {
			op.Step = int(n)
		}
		if n, ok := num(m, "steps"); ok {
			op.Steps = int(n)
		}
		if t, err := time.Parse(time.RFC3339Nano, str(m, "created", "create_time", "created_at")); err == nil {
			op.Created = t
		}
		if d, err := time.ParseDuration(str(m, "age")); err == nil {
			op.Age = d
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

// WriteOperators prints one line per operator: region, kind, description
// (name: steps), status (with the step reached, or why it stopped) and
// age (PD's figure, else relative to now).
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
		case op.Age >= 0:
			age = formatAge(op.Age)
		case !op.Created.IsZero():
			age = formatAge(now.Sub(op.Created))
		}
		status := op.Status
		switch {
		case op.Reason != "":
			status += ": " + op.Reason
		case status == "running" && op.Steps > 0:
			status += fmt.Sprintf(" (step %d/%d)", op.Step+1, op.Steps)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", op.RegionID, dash(op.Kind), dash(desc), dash(status), age)
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
