package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/pd/meta"
	"github.com/strata-db/strata/internal/pd/schedule"
)

// OperatorRequestJSON is the body of POST /pd/api/v1/operators, as PD
// takes it (pd-ctl's `operator add transfer-leader REGION STORE`):
// {"name": "transfer-leader", "region_id": 2, "to_store_id": 3}.
type OperatorRequestJSON struct {
	Name      string `json:"name"`
	RegionID  uint64 `json:"region_id"`
	ToStoreID uint64 `json:"to_store_id"`
}

// errBadOperator is a request for an operator that cannot run.
var errBadOperator = errors.New("pd: bad operator request")

// addOperator serves POST /pd/api/v1/operators: it creates an admin
// operator (no schedule limit; it replaces a scheduler's operator on the
// region) and answers its view.
func (t *term) addOperator(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	var req OperatorRequestJSON
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("%w: %v", errBadOperator, err))
		return
	}
	region := t.cluster.Region(req.RegionID)
	if region == nil {
		writeError(w, http.StatusNotFound, meta.ErrRegionNotFound)
		return
	}
	op, err := adminOperator(req, region)
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	c := t.coord.Controller()
	if err := c.AddOperator(op); err != nil {
		code := http.StatusConflict // another admin operator runs there
		if errors.Is(err, schedule.ErrInvalidOperator) {
			code = http.StatusBadRequest
		}
		writeError(w, code, err)
		return
	}
	writeJSON(w, http.StatusOK, c.View(op))
}

// adminOperator plans the operator req asks for on region.
func adminOperator(req OperatorRequestJSON, region *meta.RegionInfo) (*schedule.Operator, error) {
	switch req.Name {
	case "transfer-leader":
		if region.Leader == nil {
			return nil, fmt.Errorf("%w: region %d has no leader known", errBadOperator, req.RegionID)
		}
		from := region.Leader.GetStoreId()
		if from == req.ToStoreID {
			return nil, fmt.Errorf("%w: region %d is already led from store %d", errBadOperator, req.RegionID, from)
		}
		if p := region.PeerOnStore(req.ToStoreID); p == nil || p.GetRole() != kvrpcpb.PeerRole_Voter {
			return nil, fmt.Errorf("%w: store %d holds no voter of region %d", errBadOperator, req.ToStoreID, req.RegionID)
		}
		return schedule.NewOperator("admin-transfer-leader", schedule.KindAdmin, region, time.Now(),
			schedule.TransferLeader{FromStore: from, ToStore: req.ToStoreID}), nil
	}
	return nil, fmt.Errorf("%w: unknown operator %q (want transfer-leader)", errBadOperator, req.Name)
}
