// interpreter/eval/eval_work.cpp — the size of what a run builds and the work
// of looking at it: values against max_value_size, strings against
// max_string_length, and comparisons charged by the leaves and bytes they read,
// so that max_steps measures real work whatever the values share.
#include <fmt/format.h>

#include "interpreter/eval/eval_context.hpp"

namespace alea::detail {

void Evaluator::check_collection(const Value& v, Span span) {
  // Every value passes here, so none nests deeper than the limit; printing,
  // comparing and freeing values recurse through that nesting.
  if (v.depth() > limits_.max_value_depth) {
    fail(DiagCode::SizeLimitExceeded, span,
         fmt::format("values nest more than {} levels deep (max_value_depth)", limits_.max_value_depth));
  }
  // Sharing builds big values cheaply ([x, x] doubles x); printing or
  // comparing them walks every copy.
  if (v.size() > static_cast<std::uint64_t>(limits_.max_value_size)) value_too_large(span);
}

void Evaluator::value_too_large(Span span) {
  fail(DiagCode::SizeLimitExceeded, span,
       fmt::format("this would make a value of more than {} items (max_value_size)", limits_.max_value_size));
}

void Evaluator::check_string(std::size_t bytes, Span span) {
  if (bytes > static_cast<std::uint64_t>(limits_.max_string_length)) {
    fail(DiagCode::SizeLimitExceeded, span,
         fmt::format("this would make a string of more than {} bytes (max_string_length)",
                     limits_.max_string_length));
  }
  charge_bytes(bytes, span);
}

std::string Evaluator::display(const Value& v, Span span) {
  std::string s = to_display(v, limits_.max_string_length);
  charge_bytes(s.size(), span);
  return s;
}

namespace {

// As operator== on values, counting what it reads.
struct Compare {
  Evaluator& ev;
  Span span;

  bool equal(const Value& a, const Value& b) {
    ev.charge(1, span);
    if ((a.as_pool() || b.as_pool()) && a.number() && b.number()) return *a.number() == *b.number();
    if (a.kind() != b.kind()) return false;
    if (const auto* x = a.as_str()) {
      const auto* y = b.as_str();
      if (x == y) return true;
      if (x->size() != y->size()) return false;
      ev.charge_bytes(x->size(), span);
      return *x == *y;
    }
    if (const auto* x = a.as_list()) {
      const auto* y = b.as_list();
      if (x == y) return true;  // shared: equal without a look inside
      if (x->size() != y->size()) return false;
      for (std::size_t i = 0; i < x->size(); ++i) {
        if (!equal((*x)[i], (*y)[i])) return false;
      }
      return true;
    }
    if (const auto* x = a.as_record()) {
      const auto* y = b.as_record();
      if (x == y) return true;
      if (x->names.size() != y->names.size()) return false;
      for (std::size_t i = 0; i < x->names.size(); ++i) {
        // Fields in the same order are found at once, others by a search.
        const Value* other = &y->values[i];
        if (y->names[i] != x->names[i]) {
          ev.charge_items(y->names.size(), span);
          other = b.field(x->names[i]);
        }
        if (!other || !equal(x->values[i], *other)) return false;
      }
      return true;
    }
    return a == b;  // numbers, bools, none, pools
  }
};

}  // namespace

bool Evaluator::equal(const Value& a, const Value& b, Span span) {
  Compare c{*this, span};
  return c.equal(a, b);
}

}  // namespace alea::detail
