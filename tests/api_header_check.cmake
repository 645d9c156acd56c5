# tests/api_header_check.cmake — the test api.header_check: interpreter/api.hpp, the public
# API, must not bring in the syntax tree or the interpreter's internals, directly or through the
# headers it includes. Code that includes only the API is then not rebuilt when they change, and
# an embedder never sees the AST. Fails naming each forbidden header with the chain of includes
# that brought it in.
#
#   cmake -DCXX=<compiler> "-DINCLUDES=<dir>;<dir>…" -DWORK=<dir> -P tests/api_header_check.cmake
#
# INCLUDES are the include directories an embedder gets from alea::interpreter. The compiler only
# preprocesses (-E -H lists every header it reads), which takes well under a second.

# Allowed from dsl/: the diagnostics an embedder reads, the source files their spans point into,
# and the parser's ceilings (EngineOptions::parse).
set(allowed_dsl "^dsl/(diagnostic\\.hpp|diagnostic_codes\\.def|parse_options\\.hpp|source\\.hpp)$")
# Forbidden anywhere in the project: the rest of dsl/ (the AST, the parser, the resolver…), the
# evaluator, the exact and sampling engines, the pool operations, the compiled program and the
# ruleset's full description (which holds AST types).
set(forbidden "^dsl/|^interpreter/(eval|exact|sample|ops)/|^interpreter/program\\.hpp$|^interpreter/rulesets/ruleset[^/]*\\.hpp$")

foreach(var CXX INCLUDES WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "api_header_check.cmake needs -D${var}=…")
  endif()
endforeach()
get_filename_component(source_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

file(MAKE_DIRECTORY "${WORK}")
set(tu "${WORK}/api_only.cpp")
file(WRITE "${tu}" "#include \"interpreter/api.hpp\"\n")
set(flags -std=c++20)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags "-I${dir}")
endforeach()
execute_process(COMMAND "${CXX}" ${flags} -E -H -o "${WORK}/api_only.ii" "${tu}"
                RESULT_VARIABLE rc ERROR_VARIABLE tree)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "preprocessing a file that includes only interpreter/api.hpp failed:\n${tree}")
endif()

# -H prints one line per header read: as many dots as it is deep, a space, its path.
string(REPLACE ";" "\\;" tree "${tree}")
string(REPLACE "\n" ";" lines "${tree}")
set(chain "")  # the path of the header at each depth, down to the current one
set(seen_api FALSE)
set(problems "")  # one "header: chain" each, the first chain found
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^(\\.+) (.+)$")
    continue()
  endif()
  string(LENGTH "${CMAKE_MATCH_1}" depth)
  get_filename_component(path "${CMAKE_MATCH_2}" ABSOLUTE BASE_DIR "${WORK}")
  file(RELATIVE_PATH rel "${source_dir}" "${path}")
  if(rel MATCHES "^\\.\\./")  # outside the project: the standard library, fmt, PCG
    set(rel "${path}")
  endif()
  list(LENGTH chain n)
  math(EXPR keep "${depth} - 1")
  if(keep LESS n)
    list(SUBLIST chain 0 ${keep} chain)
  endif()
  list(APPEND chain "${rel}")
  if(rel STREQUAL "interpreter/api.hpp")
    set(seen_api TRUE)
  endif()
  if(rel MATCHES "${forbidden}" AND NOT rel MATCHES "${allowed_dsl}")
    list(JOIN chain " → " via)
    if(NOT problems MATCHES "(^|\n)  ${rel}: ")
      string(APPEND problems "  ${rel}: ${via}\n")
    endif()
  endif()
endforeach()

if(NOT seen_api)
  message(FATAL_ERROR "the compiler's header list (-H) did not name interpreter/api.hpp; "
                      "cannot tell what it includes:\n${tree}")
endif()
if(problems)
  message(FATAL_ERROR "interpreter/api.hpp brings in headers internal to the interpreter (the public "
                      "API must hold programs and rulesets opaquely; include these where they are "
                      "needed instead):\n${problems}")
endif()
message(STATUS "interpreter/api.hpp includes nothing internal")
