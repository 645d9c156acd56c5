// python/convert.cpp — values between Python and the language, and errors as alea.Error.
#include "python/convert.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <vector>

namespace alea::python {

py::object to_python(const Value& value) {
  if (const auto* i = value.as_int()) return py::int_(*i);
  if (const auto* b = value.as_bool()) return py::bool_(*b);
  if (const auto* s = value.as_str()) return py::str(*s);
  if (const auto* p = value.as_pool()) {
    if (const auto total = pool_total(*p)) return py::int_(*total);
    throw InputError{Diagnostic(DiagCode::SizeLimitExceeded, {}, "the pool's total does not fit in 64 bits")};
  }
  if (const auto* l = value.as_list()) {
    py::list out;
    for (const Value& item : *l) out.append(to_python(item));
    return out;
  }
  if (const auto* r = value.as_record()) {
    py::dict out;
    for (std::size_t i = 0; i < r->names.size(); ++i) out[py::str(r->names[i])] = to_python(r->values[i]);
    return out;
  }
  return py::none();
}

Value from_python(py::handle object, const std::string& what) {
  if (object.is_none()) return NoneValue{};
  // bool before int: in Python a bool is an int.
  if (py::isinstance<py::bool_>(object)) return Value(object.cast<bool>());
  if (py::isinstance<py::int_>(object)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
    if (overflow != 0) throw py::value_error(fmt::format("{} does not fit in 64 bits", what));
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    return Value(static_cast<std::int64_t>(v));
  }
  if (py::isinstance<py::str>(object)) return Value(object.cast<std::string>());
  if (py::isinstance<py::list>(object) || py::isinstance<py::tuple>(object)) {
    std::vector<Value> items;
    std::size_t k = 0;
    for (py::handle item : object) items.push_back(from_python(item, fmt::format("{}[{}]", what, k++)));
    return make_list(std::move(items));
  }
  if (py::isinstance<py::dict>(object)) {
    std::vector<std::string> names;
    std::vector<Value> values;
    for (auto [key, item] : object.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) {
        throw py::type_error(fmt::format("{} is a dict, a record: its keys must be str, got {}", what,
                                         py::repr(key).cast<std::string>()));
      }
      names.push_back(key.cast<std::string>());
      values.push_back(from_python(item, fmt::format("{}['{}']", what, names.back())));
    }
    return make_record(std::move(names), std::move(values));
  }
  throw py::type_error(fmt::format("{} must be an int, bool, str, None, list or dict, not {}", what,
                                   py::str(py::type::of(object).attr("__name__")).cast<std::string>()));
}

void check(const Diagnostics& diagnostics) {
  if (!diagnostics.empty()) throw InputError{diagnostics.front()};
}

void register_errors() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      const Diagnostic& d = e.diagnostic;
      py::object file = py::none(), line = py::none(), column = py::none();
      if (!d.span.empty()) {
        const LineColumn lc = d.span.file->line_column(d.span.begin);
        file = py::str(d.span.file->name());
        line = py::int_(lc.line);
        column = py::int_(lc.column);
      }
      const ErrorReport report = error_report(d);
      // The package defines alea.Error before it imports this module, and this module cannot be
      // imported without its package: alea is always there to be read.
      py::object error_class = py::module_::import("alea").attr("Error");
      py::object error = error_class(std::string(code_name(d.code)), d.message, file, line, column, report.rendered,
                                     diagnostic_document_json(report));
      PyErr_SetObject(error_class.ptr(), error.ptr());
    }
  });
}

}  // namespace alea::python
