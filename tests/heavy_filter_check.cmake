# tests/heavy_filter_check.cmake — each GoogleTest filter pattern of PATTERNS (joined with ':')
# selects at least one case of BINARY; fails naming those that select none.
#   cmake -DBINARY=alea_heavy_tests -DPATTERNS='A.*:B.c' -P heavy_filter_check.cmake
string(REPLACE ":" ";" patterns "${PATTERNS}")
set(none "")
foreach(pattern ${patterns})
  execute_process(COMMAND ${BINARY} --gtest_list_tests "--gtest_filter=${pattern}"
                  OUTPUT_VARIABLE listed RESULT_VARIABLE rc)
  # Cases are listed indented under their suite's name.
  if(NOT rc EQUAL 0 OR NOT listed MATCHES "\n  [^ \n]")
    list(APPEND none "${pattern}")
  endif()
endforeach()
list(LENGTH patterns count)
if(none)
  list(JOIN none "\n  " none)
  message(FATAL_ERROR "these patterns of ALEA_UNIT_HEAVY select no case of ${BINARY}:\n  ${none}")
endif()
message(STATUS "each of the ${count} patterns selects a case")
