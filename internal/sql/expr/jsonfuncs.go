package expr

import (
	"bytes"
	"errors"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// JSON functions. A JSON-typed expression evaluates to a KindJSON datum
// (the value's binary form, types.EncodeJSON); JSON documents given as
// text are parsed (error 3141 when invalid); value arguments (JSON_ARRAY's,
// JSON_SET's values) turn into JSON by their SQL type: strings become
// JSON strings, comparisons and TRUE/FALSE booleans.

func jsonType() *types.FieldType { return types.NewFieldType(mysql.TypeJSON) }

// longText is the type of functions returning JSON as text (JSON_UNQUOTE,
// JSON_TYPE, JSON_QUOTE): utf8mb4 LONGTEXT.
func longText() *types.FieldType {
	ft := stringType("utf8mb4_bin", false, 4294967295)
	ft.Tp = mysql.TypeLongBlob
	return ft
}

// isBoolExpr reports an expression MySQL treats as a boolean when it
// becomes JSON: comparisons, logical operators, TRUE and FALSE (typed
// BIGINT(1) by the builder).
func isBoolExpr(e Expression) bool {
	ft := e.Type()
	return ft.Tp == mysql.TypeLonglong && ft.Flen == 1
}

// jsonDoc evaluates argument i as a JSON document: a JSON value, or text
// parsed as JSON (3141); other types are 3146. null reports SQL NULL.
func jsonDoc(ctx EvalContext, row chunk.Row, args []Expression, i int, fn string) (j types.JSON, null bool, err error) {
	d, err := args[i].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return j, true, err
	}
	return datumAsDoc(&d, args[i].Type(), i, fn)
}

func datumAsDoc(d *types.Datum, ft *types.FieldType, i int, fn string) (types.JSON, bool, error) {
	switch d.Kind() {
	case types.KindJSON:
		j, err := d.GetJSON()
		return j, false, err
	case types.KindString, types.KindBytes, types.KindEnum, types.KindSet:
		j, err := types.ParseJSON(string(d.GetBytes()))
		if err != nil {
			return j, false, jsonTextError(err, i, fn)
		}
		return j, false, nil
	}
	return types.JSON{}, false, sqlerr.New(mysql.ErrInvalidTypeForJSON, i+1, fn)
}

// jsonTextError is MySQL's 3141 for a parse error of argument i.
func jsonTextError(err error, i int, fn string) error {
	var se *types.JSONSyntaxError
	if errors.As(err, &se) {
		return sqlerr.Newf(mysql.ErrInvalidJSONTextInParam,
			"Invalid JSON text in argument %d to function %s: \"%s\" at position %d.", i+1, fn, se.Msg, se.Pos)
	}
	return err
}

// JSONArgValue evaluates e as a JSON function's value argument (JSON as
// is, booleans as true/false, strings as JSON strings, SQL NULL as null):
// JSON_ARRAY's and JSON_SET's values, and those of JSON_ARRAYAGG and
// JSON_OBJECTAGG.
func JSONArgValue(ctx EvalContext, row chunk.Row, e Expression) (types.JSON, error) {
	d, err := e.Eval(ctx, row)
	if err != nil {
		return types.JSON{}, err
	}
	if isBoolExpr(e) && (d.Kind() == types.KindInt64 || d.Kind() == types.KindUint64) {
		return types.JSONBool(d.GetInt64() != 0), nil
	}
	return d.ToJSON(), nil
}

// jsonPathArg evaluates argument i as a path (3143 when invalid).
func jsonPathArg(ctx EvalContext, row chunk.Row, e Expression) (p types.JSONPath, null bool, err error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return p, true, err
	}
	p, err = types.ParseJSONPath(string(toBytes(&d)))
	if err != nil {
		return p, false, sqlerr.Newf(mysql.ErrInvalidJSONPath, "%s", err.Error())
	}
	return p, false, nil
}

func jsonResult(j types.JSON) types.Datum { return types.NewJSONDatum(j) }

func init() {
	registerDoc("json_extract", 2, -1, jsonType, jsonExtract)
	register("json_unquote", 1, 1, fixed(longText, jsonUnquoteFunc{}))
	register("json_object", 0, -1, func(b *builder, c *call) (Expression, error) {
		if len(c.args)%2 != 0 {
			return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, "json_object")
		}
		return b.newFunc(c.name, c.args, jsonType(), jsonObjectFunc{}), nil
	})
	register("json_array", 0, -1, fixed(jsonType, jsonArrayFunc{}))
	registerDoc("json_contains", 2, 3, boolType, jsonContains)
	registerDoc("json_contains_path", 3, -1, boolType, jsonContainsPath)
	for name, mode := range map[string]types.JSONModifyMode{
		"json_set": types.JSONSetMode, "json_insert": types.JSONInsertMode, "json_replace": types.JSONReplaceMode,
	} {
		register(name, 3, -1, func(b *builder, c *call) (Expression, error) {
			if len(c.args)%2 != 1 {
				return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, c.name)
			}
			return b.newFunc(c.name, c.args, jsonType(), jsonDocFn{name: c.name, fn: jsonModify(mode)}), nil
		})
	}
	register("json_array_append", 3, -1, func(b *builder, c *call) (Expression, error) {
		if len(c.args)%2 != 1 {
			return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, c.name)
		}
		return b.newFunc(c.name, c.args, jsonType(), jsonDocFn{name: c.name, fn: jsonArrayAppend}), nil
	})
	registerDoc("json_remove", 2, -1, jsonType, jsonRemove)
	registerDoc("json_keys", 1, 2, jsonType, jsonKeys)
	registerDoc("json_length", 1, 2, intResult, jsonLength)
	registerDoc("json_depth", 1, 1, intResult, jsonDepth)
	registerDoc("json_type", 1, 1, textType(51), jsonTypeName)
	register("json_valid", 1, 1, fixed(boolType, jsonValidFunc{}))
	register("json_quote", 1, 1, fixed(longText, jsonQuoteFunc{}))
	register("json_merge_preserve", 2, -1, fixed(jsonType, jsonMergeFunc{name: "json_merge_preserve"}))
	register("json_merge", 2, -1, fixed(jsonType, jsonMergeFunc{name: "json_merge"}))
	register("json_merge_patch", 2, -1, fixed(jsonType, jsonMergeFunc{name: "json_merge_patch", patch: true}))
}

// jsonDocFn is a JSON function of a document, its first argument (NULL
// gives NULL, text is parsed: see jsonDoc), and of its other arguments.
type jsonDocFn struct {
	name string
	fn   func(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error)
}

func (f jsonDocFn) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	doc, null, err := jsonDoc(ctx, row, args, 0, f.name)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	return f.fn(ctx, row, args, doc)
}

// registerDoc registers a jsonDocFn of result type ft.
func registerDoc(name string, min, max int, ft func() *types.FieldType,
	fn func(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error)) {
	register(name, min, max, fixed(ft, jsonDocFn{name: name, fn: fn}))
}

// jsonExtract is JSON_EXTRACT(doc, path, ...) and doc->path: the value at
// a single path without wildcards, else an array of every match; NULL
// when nothing matches.
func jsonExtract(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error) {
	var found []types.JSON
	wrap := len(args) > 2
	for _, a := range args[1:] {
		p, null, err := jsonPathArg(ctx, row, a)
		if err != nil || null {
			return types.NewNullDatum(), err
		}
		wrap = wrap || p.HasWildcard()
		found = append(found, p.Extract(&doc)...)
	}
	switch {
	case len(found) == 0:
		return types.NewNullDatum(), nil
	case !wrap:
		return jsonResult(found[0]), nil
	}
	return jsonResult(types.JSONFromArray(found)), nil
}

// jsonUnquoteFunc is JSON_UNQUOTE(x) and ->>: a JSON string's value; text
// that is a quoted JSON string literal unescaped (3141 when the literal
// is invalid); any other text as is.
type jsonUnquoteFunc struct{}

func (jsonUnquoteFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	if d.Kind() == types.KindJSON {
		j, err := d.GetJSON()
		if err != nil {
			return types.NewNullDatum(), err
		}
		return types.NewStringDatum(j.Unquote()), nil
	}
	s := toBytes(&d)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		j, err := types.ParseJSON(string(s))
		if err != nil {
			return types.NewNullDatum(), jsonTextError(err, 0, "json_unquote")
		}
		return types.NewStringDatum(j.Str), nil
	}
	return types.NewStringDatumBytes(s), nil
}

// jsonObjectFunc is JSON_OBJECT(key, value, ...); a NULL key is 3158.
type jsonObjectFunc struct{}

func (jsonObjectFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var ob types.JSONObjectBuilder
	for i := 0; i < len(args); i += 2 {
		k, err := args[i].Eval(ctx, row)
		if err != nil {
			return types.NewNullDatum(), err
		}
		if k.IsNull() {
			return types.NewNullDatum(), sqlerr.New(mysql.ErrJSONDocumentNULLKey)
		}
		v, err := JSONArgValue(ctx, row, args[i+1])
		if err != nil {
			return types.NewNullDatum(), err
		}
		ob.Add(string(toBytes(&k)), v)
	}
	return jsonResult(ob.Build()), nil
}

// jsonArrayFunc is JSON_ARRAY(value, ...).
type jsonArrayFunc struct{}

func (jsonArrayFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	elems := make([]types.JSON, len(args))
	for i, a := range args {
		v, err := JSONArgValue(ctx, row, a)
		if err != nil {
			return types.NewNullDatum(), err
		}
		elems[i] = v
	}
	return jsonResult(types.JSONFromArray(elems)), nil
}

// jsonContains is JSON_CONTAINS(target, candidate[, path]).
func jsonContains(ctx EvalContext, row chunk.Row, args []Expression, target types.JSON) (types.Datum, error) {
	cand, null, err := jsonDoc(ctx, row, args, 1, "json_contains")
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	if len(args) == 3 {
		p, null, err := jsonPathArg(ctx, row, args[2])
		if err != nil || null {
			return types.NewNullDatum(), err
		}
		if p.HasWildcard() {
			return types.NewNullDatum(), sqlerr.New(mysql.ErrInvalidJSONPathWildcard)
		}
		found := p.Extract(&target)
		if len(found) == 0 {
			return types.NewNullDatum(), nil
		}
		target = found[0]
	}
	return boolDatum(types.ContainsJSON(&target, &cand)), nil
}

// jsonContainsPath is JSON_CONTAINS_PATH(doc, 'one'|'all', path, ...).
func jsonContainsPath(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error) {
	m, err := args[1].Eval(ctx, row)
	if err != nil || m.IsNull() {
		return types.NewNullDatum(), err
	}
	var all bool
	switch mode := toBytes(&m); {
	case bytes.EqualFold(mode, []byte("one")):
	case bytes.EqualFold(mode, []byte("all")):
		all = true
	default:
		return types.NewNullDatum(), sqlerr.New(mysql.ErrJSONBadOneOrAllArg, "json_contains_path")
	}
	for _, a := range args[2:] {
		p, null, err := jsonPathArg(ctx, row, a)
		if err != nil || null {
			return types.NewNullDatum(), err
		}
		found := len(p.Extract(&doc)) > 0
		if found && !all {
			return boolDatum(true), nil
		}
		if !found && all {
			return boolDatum(false), nil
		}
	}
	return boolDatum(all), nil
}

// modifyPath evaluates a path argument of a function that changes
// documents: no wildcards (3149), and not '$' when removing (3153).
func modifyPath(ctx EvalContext, row chunk.Row, e Expression, vacuousOK bool) (types.JSONPath, bool, error) {
	p, null, err := jsonPathArg(ctx, row, e)
	if err != nil || null {
		return p, null, err
	}
	if p.HasWildcard() {
		return p, false, sqlerr.New(mysql.ErrInvalidJSONPathWildcard)
	}
	if !vacuousOK && p.IsRoot() {
		return p, false, sqlerr.New(mysql.ErrJSONVacuousPath)
	}
	return p, false, nil
}

// jsonModify is JSON_SET, JSON_INSERT and JSON_REPLACE(doc, path,
// value, ...) by mode, applied pair by pair.
func jsonModify(mode types.JSONModifyMode) func(EvalContext, chunk.Row, []Expression, types.JSON) (types.Datum, error) {
	return func(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error) {
		return eachPathValue(ctx, row, args, doc, func(p types.JSONPath, v, doc types.JSON) types.JSON {
			return p.Modify(doc, v, mode)
		})
	}
}

// jsonArrayAppend is JSON_ARRAY_APPEND(doc, path, value, ...): the value
// appended to the array at path (a non-array is wrapped first).
func jsonArrayAppend(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error) {
	return eachPathValue(ctx, row, args, doc, func(p types.JSONPath, v, doc types.JSON) types.JSON {
		found := p.Extract(&doc)
		if len(found) == 0 {
			return doc
		}
		target := found[0]
		var elems []types.JSON
		if target.Type == types.JSONArray {
			elems = append(append(elems, target.Elems...), v)
		} else {
			elems = []types.JSON{target, v}
		}
		return p.Modify(doc, types.JSONFromArray(elems), types.JSONReplaceMode)
	})
}

// eachPathValue applies step to doc for each (path, value) argument pair
// after the document, in order; a NULL path makes the result NULL.
func eachPathValue(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON,
	step func(p types.JSONPath, v, doc types.JSON) types.JSON) (types.Datum, error) {
	for i := 1; i+1 < len(args); i += 2 {
		p, null, err := modifyPath(ctx, row, args[i], true)
		if err != nil || null {
			return types.NewNullDatum(), err
		}
		v, err := JSONArgValue(ctx, row, args[i+1])
		if err != nil {
			return types.NewNullDatum(), err
		}
		doc = step(p, v, doc)
	}
	return jsonResult(doc), nil
}

// jsonRemove is JSON_REMOVE(doc, path, ...).
func jsonRemove(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error) {
	for _, a := range args[1:] {
		p, null, err := modifyPath(ctx, row, a, false)
		if err != nil || null {
			return types.NewNullDatum(), err
		}
		doc = p.Remove(doc)
	}
	return jsonResult(doc), nil
}

// atPath evaluates the optional path argument of JSON_KEYS and
// JSON_LENGTH: the value it selects (ok false for none; wildcards 3149).
func atPath(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (v types.JSON, ok bool, err error) {
	if len(args) < 2 {
		return doc, true, nil
	}
	p, null, err := jsonPathArg(ctx, row, args[1])
	if err != nil || null {
		return v, false, err
	}
	if p.HasWildcard() {
		return v, false, sqlerr.New(mysql.ErrInvalidJSONPathWildcard)
	}
	found := p.Extract(&doc)
	if len(found) == 0 {
		return v, false, nil
	}
	return found[0], true, nil
}

// jsonKeys is JSON_KEYS(doc[, path]): the member names of an object as an
// array, NULL for anything else.
func jsonKeys(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error) {
	v, ok, err := atPath(ctx, row, args, doc)
	if err != nil || !ok || v.Type != types.JSONObject {
		return types.NewNullDatum(), err
	}
	keys := make([]types.JSON, len(v.Keys))
	for i, k := range v.Keys {
		keys[i] = types.JSONFromString(k)
	}
	return jsonResult(types.JSONFromArray(keys)), nil
}

// jsonLength is JSON_LENGTH(doc[, path]).
func jsonLength(ctx EvalContext, row chunk.Row, args []Expression, doc types.JSON) (types.Datum, error) {
	v, ok, err := atPath(ctx, row, args, doc)
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	return types.NewIntDatum(int64(v.Len())), nil
}

// jsonDepth is JSON_DEPTH(doc).
func jsonDepth(_ EvalContext, _ chunk.Row, _ []Expression, doc types.JSON) (types.Datum, error) {
	return types.NewIntDatum(int64(doc.Depth())), nil
}

// jsonTypeName is JSON_TYPE(doc): OBJECT, ARRAY, STRING, INTEGER, ...
func jsonTypeName(_ EvalContext, _ chunk.Row, _ []Expression, doc types.JSON) (types.Datum, error) {
	return types.NewStringDatum(doc.Type.String()), nil
}

// jsonValidFunc is JSON_VALID(x): 1 for a JSON value or valid JSON text,
// 0 otherwise.
type jsonValidFunc struct{}

func (jsonValidFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	switch d.Kind() {
	case types.KindJSON:
		return boolDatum(true), nil
	case types.KindString, types.KindBytes, types.KindEnum, types.KindSet:
		_, err := types.ParseJSON(string(d.GetBytes()))
		return boolDatum(err == nil), nil
	}
	return boolDatum(false), nil
}

// jsonQuoteFunc is JSON_QUOTE(s): s as a JSON string literal.
type jsonQuoteFunc struct{}

func (jsonQuoteFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	if !isStringKind(&d) {
		return types.NewNullDatum(), sqlerr.Newf(mysql.ErrIncorrectType,
			"Incorrect type for argument %s in function %s.", "1", "json_quote")
	}
	return types.NewStringDatumBytes(types.AppendJSONQuoted(nil, string(d.GetBytes()))), nil
}

// jsonMergeFunc is JSON_MERGE_PRESERVE (JSON_MERGE) and JSON_MERGE_PATCH.
type jsonMergeFunc struct {
	name  string
	patch bool
}

func (f jsonMergeFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var acc types.JSON
	for i := range args {
		doc, null, err := jsonDoc(ctx, row, args, i, f.name)
		if err != nil || null {
			return types.NewNullDatum(), err
		}
		switch {
		case i == 0:
			acc = doc
		case f.patch:
			acc = types.MergePatchJSON(acc, doc)
		default:
			acc = types.MergePreserveJSON(acc, doc)
		}
	}
	return jsonResult(acc), nil
}
