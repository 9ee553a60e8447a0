package bench

import (
	"slices"
	"time"
)

// latencies collects one worker's operation latencies; merged after a run.
type latencies []time.Duration

// percentile returns the p-th percentile (0 < p <= 100) of sorted l.
func (l latencies) percentile(p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	i := int(float64(len(l))*p/100+0.5) - 1
	i = max(0, min(i, len(l)-1))
	return l[i]
}

func merge(parts []latencies) latencies {
	var all latencies
	for _, p := range parts {
		all = append(all, p...)
	}
	slices.Sort(all)
	return all
}
