// The workload loader's sections that hold text and ops: params, bindings
// (GK text, or a map of GK or legacy chains), tags, and the ops of the
// top level, of a phase and of each block, in every shape nb-rs reads.
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "frontend/legacy_chain.h"
#include "workload/model_detail.h"

namespace polydat::workload::model_detail {

void Loader::read_params(const Entry& section) {
  if (section.value.IsNull()) return;
  for (const Entry& e : entries(section.value, "params", section.key_at, "params")) {
    const std::string key = join_key("params", e.key);
    if (e.value.IsNull()) {
      Field f;
      f.key = key;
      f.at = f.content = e.key_at;
      w_.params.emplace_back(e.key, std::move(f));
    } else {
      w_.params.emplace_back(e.key, required_scalar(e, key, "a scalar (a param's value is text)"));
    }
  }
}

// `bindings:` as GK text (usually a `|` block) or a map NAME: EXPR, which
// becomes one "NAME := EXPR" line per entry.
// `legacy_chains`: the workload's top-level map, whose values nb-rs reads as
// legacy chains (frontend/legacy_chain.h); elsewhere a value is GK.
std::optional<Field> Loader::read_bindings(const Entry& section, const std::string& key, bool legacy_chains) {
  const YAML::Node& v = section.value;
  if (v.IsNull()) return std::nullopt;
  if (v.IsScalar()) return scalar_field(v, section.value_at, key);
  if (!v.IsMap())
    fail(section.value_at, key,
         "bindings are GK text (a `|` block) or a map of NAME: EXPRESSION, not " + std::string(shape(v)),
         "not-a-scalar");
  Field f;
  f.key = key;
  f.at = f.content = section.value_at;
  bool first = true;
  for (const Entry& e : entries(v, key, section.key_at, "bindings")) {
    const std::string entry_key = join_key(key, e.key);
    if (!e.value.IsScalar())
      fail(e.value_at, entry_key, "a binding in a bindings map is NAME: EXPRESSION; " + in_quotes(e.key) + " is " +
                                      shape(e.value),
           "not-a-scalar");
    const Field value = scalar_field(e.value, e.value_at, entry_key);
    if (first) f.content = value.content;  // the first line's expression, as near as a map allows
    first = false;
    f.text += binding_line(e.key, value, legacy_chains) + "\n";
  }
  return f;
}

// One entry of a bindings map as a GK line: nb-rs's reading of it.
std::string Loader::binding_line(const std::string& name, const Field& value, bool legacy_chain) const {
  auto at = [&](size_t offset) {  // a place in a one-line value
    Mark m = value.content;
    if (value.text.find('\n') == std::string::npos) m.col += static_cast<uint32_t>(offset);
    return m;
  };
  if (!legacy_chain) {
    if (frontend::looks_like_legacy_chain(value.text))
      fail(value.content, value.key,
           "this is a legacy binding chain (`Hash(); Mod(100)`), which nb-rs reads only in the workload's "
           "top-level bindings map; in an op's, a block's or a phase's map a binding is one GK expression",
           "legacy-chain");
    return name + " := " + value.text;
  }
  auto gk = frontend::legacy_chain_to_gk(name, value.text);
  if (!gk) fail(at(gk.error().offset), value.key, gk.error().message + " (a legacy binding chain)", "legacy-chain");
  return *gk;
}

// `tags:` as nb-rs reads them: a map of NAME: VALUE.
Tags Loader::read_tag_map(const Entry& section, const std::string& key) {
  std::vector<std::pair<std::string, std::string>> out;
  if (section.value.IsNull()) return out;
  for (const Entry& e : entries(section.value, key, section.key_at, "tags"))
    out.emplace_back(e.key, required_scalar(e, join_key(key, e.key), "a scalar (a tag's value)").text);
  return out;
}

// `ops:` in any of its shapes, appended to `out`.
void Loader::read_ops(const Entry& section, const std::string& key, const std::string& block, int block_index, Tags scope,
                      std::vector<OpDef>& out) {
  const OpOrigin origin{block, block_index, std::move(scope)};
  const YAML::Node& v = section.value;
  if (v.IsNull()) return;
  if (v.IsScalar()) {  // one op
    out.push_back(text_op("stmt1", section.value_at, v, section.value_at, join_key(key, "stmt1.stmt"), origin));
    return;
  }
  if (v.IsMap()) {
    for (const Entry& e : entries(v, key, section.key_at, "ops"))
      out.push_back(read_op(e.key, e.key_at, e.value, e.value_at, join_key(key, e.key), origin));
    return;
  }
  if (!v.IsSequence())
    fail(section.value_at, key, "ops is a map of NAME: OP, a list of ops or one op text, not " + std::string(shape(v)),
         "not-a-map");
  const std::vector<YAML::Node> list = items(v, key, section.key_at, "ops");
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node& item = list[i];
    const std::string auto_name = "stmt" + std::to_string(i + 1);
    const std::string item_key = indexed(key, i);
    const Mark item_at = mark(item, section.value_at);
    if (item.IsScalar()) {
      out.push_back(text_op(auto_name, item_at, item, item_at, join_key(key, auto_name + ".stmt"), origin));
      continue;
    }
    if (!item.IsMap())
      fail(item_at, item_key,
           "an item of ops is an op text, NAME: OP or a map of the op's fields, not " + std::string(shape(item)),
           "not-a-map");
    const std::vector<Entry> fields = entries(item, item_key, item_at, "an op");
    // - NAME: TEXT, as nb-rs reads it; - NAME: {fields...}, a named op (nb-rs would make NAME a field of an unnamed op).
    if (fields.size() == 1 && (fields.front().value.IsScalar() || fields.front().value.IsMap() ||
                               fields.front().value.IsNull()) &&
        fields.front().key != "name") {
      const Entry& e = fields.front();
      out.push_back(read_op(e.key, e.key_at, e.value, e.value_at, join_key(key, e.key), origin));
      continue;
    }
    const auto named = std::find_if(fields.begin(), fields.end(), [](const Entry& e) { return e.key == "name"; });
    std::string name = auto_name;
    if (named != fields.end()) {
      if (!named->value.IsScalar())
        fail(named->value_at, join_key(item_key, "name"), "an op's name is a scalar, not " + std::string(shape(named->value)),
             "not-a-scalar");
      name = named->value.Scalar();
    }
    OpDef op = new_op(name, item_at, origin);
    read_op_fields(fields, join_key(key, name), op);
    finish_tags(op, origin);
    out.push_back(std::move(op));
  }
}

OpDef Loader::new_op(const std::string& name, Mark at, const OpOrigin& origin) const {
  OpDef op;
  op.name = name;
  op.at = at;
  op.block = origin.block_index;
  return op;
}

// The op's tags as nb-rs gives them: the workload's, its block's (or its phase), its own, then the automatic ones.
void Loader::finish_tags(OpDef& op, const OpOrigin& origin) const {
  op.tags = op_tags(w_.tags, origin.scope, op.tags, origin.block, op.name);
}

OpDef Loader::text_op(const std::string& name, Mark at, const YAML::Node& text, Mark text_at, const std::string& key,
                      const OpOrigin& origin) {
  OpDef op = new_op(name, at, origin);
  op.fields.emplace_back("stmt", scalar_field(text, text_at, key));
  finish_tags(op, origin);
  return op;
}

// NAME: OP, where OP is a text (its `stmt`), nothing, or a map of fields.
OpDef Loader::read_op(const std::string& name, Mark at, const YAML::Node& body, Mark body_at, const std::string& key,
                      const OpOrigin& origin) {
  if (body.IsScalar()) return text_op(name, at, body, body_at, join_key(key, "stmt"), origin);
  OpDef op = new_op(name, at, origin);
  if (!body.IsNull()) {
    if (!body.IsMap())
      fail(body_at, key, "an op is its text or a map of its fields, not " + std::string(shape(body)), "not-a-map");
    read_op_fields(entries(body, key, at, "op " + in_quotes(name)), key, op);
  }
  finish_tags(op, origin);
  return op;
}

void Loader::read_op_fields(const std::vector<Entry>& fields, const std::string& key, OpDef& op) {
  op.map_form = true;
  const Entry* payload = nullptr;
  for (const Entry& e : fields) {
    const std::string field_key = join_key(key, e.key);
    if (e.key == "name" || e.key == "description" || e.key == "desc") {
      continue;  // the name is taken by the caller; a description is documentation
    } else if (e.key == "if") {
      op.condition = optional_scalar(e, field_key);
    } else if (e.key == "bindings") {
      op.bindings = read_bindings(e, field_key);
    } else if (e.key == "ratio") {
      op.ratio = required_scalar(e, field_key, "a count (the op's share of the stanza)");
    } else if (e.key == "tags") {
      op.tags = read_tag_map(e, field_key);
    } else if (e.key == "params") {
      read_op_params(e, field_key, op);
    } else if (e.key == "adapter" || e.key == "driver") {
      check_adapter(e, field_key);
    } else if (contains(kOpPayload, e.key)) {
      if (payload) fail_twice(e, *payload, "the op's text", field_key);
      payload = &e;
      read_payload(e, field_key, op);
    } else if (contains(kOpKeys.noted, e.key)) {
      ignore(field_key, e.key_at);
    } else if (!e.value.IsScalar()) {
      fail(e.value_at, field_key,
           "the op field " + in_quotes(e.key) + " is " + shape(e.value) +
               "; this runner renders text fields only (nb-rs would send it to its adapter as JSON)",
           "unsupported-field");
    } else if (std::none_of(op.fields.begin(), op.fields.end(), [&](const auto& f) { return f.first == e.key; })) {
      op.fields.emplace_back(e.key, scalar_field(e.value, e.value_at, field_key));
    }
  }
}

// `stmt:` (or op, statement, ...): the op's text, or a map of its fields.
void Loader::read_payload(const Entry& e, const std::string& key, OpDef& op) {
  if (e.value.IsScalar()) {
    op.fields.insert(op.fields.begin(), {"stmt", scalar_field(e.value, e.value_at, key)});
    return;
  }
  if (!e.value.IsMap())
    fail(e.value_at, key, in_quotes(e.key) + " is the op's text or a map of its fields, not " + shape(e.value),
         "not-a-scalar");
  std::vector<std::pair<std::string, Field>> fields;
  for (const Entry& f : entries(e.value, key, e.key_at, in_quotes(e.key))) {
    if (!f.value.IsScalar())
      fail(f.value_at, join_key(key, f.key), "an op field is text, not " + std::string(shape(f.value)), "unsupported-field");
    fields.emplace_back(f.key, scalar_field(f.value, f.value_at, join_key(key, f.key)));
  }
  op.fields.insert(op.fields.begin(), fields.begin(), fields.end());
}

// An op's `params:`: its `ratio` acts; the rest are the adapter's and change nothing stdout prints.
void Loader::read_op_params(const Entry& section, const std::string& key, OpDef& op) {
  if (section.value.IsNull()) return;
  for (const Entry& e : entries(section.value, key, section.key_at, "an op's params")) {
    const std::string field_key = join_key(key, e.key);
    if (e.key == "ratio") {
      if (!op.ratio) op.ratio = required_scalar(e, field_key, "a count (the op's share of the stanza)");
    } else {
      ignore(field_key, e.key_at);
    }
  }
}

void Loader::read_blocks(const Entry& section) {
  if (section.value.IsNull()) return;
  auto read_block = [&](const std::string& name, const YAML::Node& body, Mark at, const std::string& key) {
    const int index = static_cast<int>(w_.blocks.size());
    w_.blocks.push_back(BlockDef{name, at, std::nullopt});
    if (body.IsNull()) return;
    if (body.IsScalar()) {  // a block that is one op's text
      const OpOrigin origin{name, index, {}};
      w_.ops.push_back(text_op("stmt1", at, body, mark(body, at), join_key(key, "stmt1.stmt"), origin));
      return;
    }
    const std::vector<Entry> fields = entries(body, key, at, "block " + in_quotes(name));
    Tags tags;
    const Entry* ops = nullptr;
    for (const Entry& e : fields) {
      const std::string field_key = join_key(key, e.key);
      if (e.key == "tags") {
        tags = read_tag_map(e, field_key);
      } else if (e.key == "bindings") {
        w_.blocks[static_cast<size_t>(index)].bindings = read_bindings(e, field_key);
      } else if (contains(kOpsKeys, e.key)) {
        if (ops) fail_twice(e, *ops, "the block's ops", field_key);
        ops = &e;
      } else if (e.key == "params") {
        for (const Entry& p : entries(e.value, field_key, e.key_at, "a block's params")) ignore(join_key(field_key, p.key), p.key_at);
      } else if (e.key != "name" && e.key != "description") {
        other_key(e, field_key, "a block", kBlockKeys);
      }
    }
    if (ops) read_ops(*ops, join_key(key, ops->key), name, index, tags, w_.ops);
  };
  if (section.value.IsSequence()) {
    const std::vector<YAML::Node> list = items(section.value, "blocks", section.key_at, "blocks");
    for (size_t i = 0; i < list.size(); ++i) {
      const Mark at = mark(list[i], section.value_at);
      std::string name = "block" + std::to_string(i + 1);
      if (list[i].IsMap() && list[i]["name"] && list[i]["name"].IsScalar()) name = list[i]["name"].Scalar();
      read_block(name, list[i], at, indexed("blocks", i));
    }
    return;
  }
  for (const Entry& block : entries(section.value, "blocks", section.key_at, "blocks"))
    read_block(block.key, block.value, block.key_at, join_key("blocks", block.key));
}

}  // namespace polydat::workload::model_detail
