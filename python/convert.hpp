// python/convert.hpp — what crosses between Python and the C++ API in the module alea._alea:
// values both ways, and a diagnostic raised as alea.Error.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>

#include "interpreter/api.hpp"

namespace alea::python {

namespace py = pybind11;

// A value as Python data: int, bool, str, None, list, and a record as a dict in field order; a
// pool as its total. Call with the GIL held.
[[nodiscard]] py::object to_python(const Value& value);

// A Python value as a value of the language, for a mechanic's argument: an int (64 bits), a
// bool, a str, None, a list or tuple, a dict with str keys (a record, in the dict's order).
// Anything else, or an int out of range, raises TypeError or ValueError naming `what` ("the
// argument 'dice'"). Call with the GIL held.
[[nodiscard]] Value from_python(py::handle object, const std::string& what);

// Raised from C++ for refused input: becomes alea.Error (python/alea/__init__.py) with the
// diagnostic's code, message, place and rendering.
struct InputError {
  Diagnostic diagnostic;
};

// Throws InputError with the first diagnostic, when there is one.
void check(const Diagnostics& diagnostics);

// Registers the translation of InputError into alea.Error (once, when the module loads).
void register_errors();

}  // namespace alea::python
