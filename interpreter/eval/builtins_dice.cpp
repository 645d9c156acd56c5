// interpreter/eval/builtins_dice.cpp — roll_each: rolling a list of described dice.
//
// A description is a record: its `die` (a number of sides, or a list of
// faces) and anything else the game says about the die, its tags (`type`,
// `colour`, `special`…). Each die's tags go into the trace, so that the
// breakdown and the JSON show what every die was. Dice are drawn in the order
// of the list; consecutive identical descriptions are one pool, drawn at once,
// so that exact statistics count them as a multiset.
#include <fmt/format.h>

#include "interpreter/eval/eval_context.hpp"

namespace alea::detail {
namespace {

// The expression an item of a literal list was written as, for a precise error.
Span item_span(BuiltinCall& c, std::size_t i) {
  if (!c.arg_exprs.empty()) {
    if (const auto* l = std::get_if<ast::ListLit>(&c.arg_exprs[0]->kind); l && i < l->items.size()) {
      return l->items[i]->span;
    }
  }
  return c.arg_span(0);
}

DieKind die_kind(BuiltinCall& c, const Value& die, Span span, std::size_t i) {
  const std::int64_t max_sides = c.ev.limits().max_sides;
  if (const auto* n = die.as_int()) {
    if (*n < 1 || *n > max_sides) {
      fail(DiagCode::InvalidDie, span,
           *n < 1 ? fmt::format("die {} of 'roll_each' needs at least 1 side, got {}", i, *n)
                  : fmt::format("die {} of 'roll_each' may have at most {} sides, got {} (max_sides)", i,
                                max_sides, *n));
    }
    return DieKind::sides(*n);
  }
  if (const auto* l = die.as_list(); l && !l->empty()) {
    c.ev.charge_items(l->size(), span);
    std::vector<std::int64_t> faces;
    for (const auto& f : *l) {
      const auto* x = f.as_int();
      if (!x) {
        fail(DiagCode::InvalidDie, span,
             fmt::format("die {} of 'roll_each' has a face that is not a number: {}", i, describe(f)));
      }
      faces.push_back(*x);
    }
    return DieKind::faces(std::move(faces));
  }
  fail(DiagCode::InvalidDie, span,
       fmt::format("die {} of 'roll_each' must be a number of sides (6) or a list of faces ([1, 1, 2]), got {}", i,
                   describe(die)));
}

// The description without `die` and `face`: what the trace keeps of it.
Value tags_of(const RecordData& r) {
  std::vector<std::string> names;
  std::vector<Value> values;
  for (std::size_t i = 0; i < r.names.size(); ++i) {
    if (r.names[i] == "die" || r.names[i] == "face") continue;
    names.push_back(r.names[i]);
    values.push_back(r.values[i]);
  }
  return make_record(std::move(names), std::move(values));
}

// The description with its `face` set: added at the end, or replaced in place.
Value with_face(const RecordData& r, std::int64_t face) {
  std::vector<std::string> names = r.names;
  std::vector<Value> values = r.values;
  const auto it = std::find(names.begin(), names.end(), "face");
  if (it == names.end()) {
    names.emplace_back("face");
    values.emplace_back(face);
  } else {
    values[static_cast<std::size_t>(it - names.begin())] = face;
  }
  return make_record(std::move(names), std::move(values));
}

}  // namespace

Value b_roll_each(BuiltinCall& c) {
  // One description alone is one die, and gives one record.
  const bool one = c.args[0].as_record() != nullptr;
  const std::vector<Value> alone = one ? std::vector<Value>{c.args[0]} : std::vector<Value>{};
  const auto* list = one ? &alone : c.args[0].as_list();
  if (!list) {
    fail(DiagCode::TypeMismatch, c.arg_span(0),
         fmt::format("'roll_each' needs a list of dice, each a record such as {{die: 6, colour: \"red\"}}, or "
                     "one such record, got {}",
                     describe(c.args[0])));
  }
  const Value* fallback = c.args.size() > 1 && !c.args[1].is_none() ? &c.args[1] : nullptr;
  struct Item {
    const RecordData* rec;
    DieKind kind;
    Value tags;
  };
  std::vector<Item> items;
  for (std::size_t i = 0; i < list->size(); ++i) {
    c.ev.charge(1, c.span);
    const RecordData* r = (*list)[i].as_record();
    if (r) c.ev.charge_items(r->names.size(), c.span);  // copied into its tags and its result
    if (!r) {
      fail(DiagCode::TypeMismatch, item_span(c, i),
           fmt::format("die {} of 'roll_each' must be a record such as {{die: 6, colour: \"red\"}}, got {}", i,
                       describe((*list)[i])));
    }
    const Value* die = (*list)[i].field("die");
    if (!die) die = fallback;
    if (!die) {
      fail(DiagCode::InvalidArgument, item_span(c, i),
           fmt::format("die {} of 'roll_each' says no 'die': give it one (die: 6, or die: [1, 1, 2]) or give "
                       "'roll_each' the die of every description without one, as in roll_each(dice, 6)",
                       i));
    }
    items.push_back({r, die_kind(c, *die, die == fallback ? c.arg_span(1) : item_span(c, i), i), tags_of(*r)});
  }
  Trace& trace = c.ev.trace();
  const auto group = static_cast<std::uint32_t>(trace.groups.size());
  trace.groups.push_back({c.arg_span(0), c.arg_span(0)});
  std::vector<Value> out;
  out.reserve(items.size());
  for (std::size_t begin = 0; begin < items.size();) {
    // A run of dice alike but for the face they showed before, drawn as one pool.
    std::size_t end = begin + 1;
    while (end < items.size() && items[end].kind == items[begin].kind && c.ev.equal(items[end].tags, items[begin].tags, c.span)) ++end;
    const auto faces = c.ev.draw(items[begin].kind, static_cast<std::int64_t>(end - begin), item_span(c, begin));
    const std::uint32_t kind = trace.kind_index(items[begin].kind);
    trace.tags.push_back(items[begin].tags);
    const auto tags = static_cast<std::uint32_t>(trace.tags.size());
    for (std::size_t i = begin; i < end; ++i) {
      const std::int64_t face = faces[i - begin];
      const std::uint32_t id = c.ev.add_die(kind, face, DieOrigin::Rolled, no_die, group);
      trace.dice[id].tags = tags;
      out.push_back(with_face(*items[i].rec, face));
    }
    begin = end;
  }
  return one ? out.front() : make_list(std::move(out));
}

}  // namespace alea::detail
