# cmake/install_library.cmake — the library as installed: libalea.so (with a version and a
# soname) and libalea.a, built from the objects of alea_dsl, alea_interpreter and alea_capi; the
# public headers (the C API's alea.h, interpreter/api.hpp and what it includes) under
# include/alea/; a CMake package (find_package(alea 0.2 CONFIG), target alea::alea) and a
# pkg-config file.
#
# Included from the top-level CMakeLists.txt after the libraries are defined. A shared library
# needs position-independent code, and Debian's static archives of yaml-cpp and GMP are not PIC,
# so libalea.so links their shared libraries; the program keeps its static link.
include(CMakePackageConfigHelpers)
find_package(Threads REQUIRED)

set_target_properties(alea_dsl alea_interpreter alea_capi PROPERTIES POSITION_INDEPENDENT_CODE ON)
set(ALEA_LIBRARY_OBJECTS $<TARGET_OBJECTS:alea_dsl> $<TARGET_OBJECTS:alea_interpreter> $<TARGET_OBJECTS:alea_capi>)
set(ALEA_INCLUDE_INSTALL_DIR ${CMAKE_INSTALL_INCLUDEDIR}/alea)

add_library(alea_shared SHARED ${ALEA_LIBRARY_OBJECTS})
add_library(alea_static STATIC ${ALEA_LIBRARY_OBJECTS})
set_target_properties(alea_shared PROPERTIES OUTPUT_NAME alea VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR} EXPORT_NAME alea)
set_target_properties(alea_static PROPERTIES OUTPUT_NAME alea EXPORT_NAME alea_static)
target_link_libraries(alea_shared PRIVATE fmt::fmt yaml-cpp ${GMPXX_LIBRARY} ${GMP_LIBRARY} Threads::Threads ${CMAKE_DL_LIBS})
target_link_libraries(alea_static INTERFACE fmt::fmt yaml-cpp ${GMPXX_LIBRARY} ${GMP_LIBRARY} Threads::Threads ${CMAKE_DL_LIBS})
# C++ includes "interpreter/api.hpp" (from include/alea/), C includes <alea/alea.h> (from include/).
foreach(t alea_shared alea_static)
  target_include_directories(${t} INTERFACE $<INSTALL_INTERFACE:${ALEA_INCLUDE_INSTALL_DIR}>
                                            $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${t} INTERFACE cxx_std_20)
endforeach()

# The public headers: api.hpp and every project header it reads (api.header_check keeps that
# list free of the syntax tree and the engine's internals).
set(ALEA_PUBLIC_HEADERS
  interpreter/api.hpp interpreter/compile_cache.hpp interpreter/limits.hpp interpreter/limits.def
  interpreter/outcome.hpp interpreter/render/json_documents.hpp interpreter/rulesets/state.hpp interpreter/values/bindings.hpp
  interpreter/values/dice.hpp interpreter/values/trace.hpp interpreter/values/value.hpp
  dsl/diagnostic.hpp dsl/diagnostic_codes.def dsl/parse_options.hpp dsl/source.hpp)
install(FILES ${PROJECT_SOURCE_DIR}/include/alea/alea.h DESTINATION ${ALEA_INCLUDE_INSTALL_DIR})
foreach(h ${ALEA_PUBLIC_HEADERS})
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${h} DESTINATION ${ALEA_INCLUDE_INSTALL_DIR}/${dir})
endforeach()

install(TARGETS alea_shared alea_static EXPORT aleaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
set(ALEA_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/alea)
set(ALEA_RULESETS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/alea/rulesets)
install(EXPORT aleaTargets NAMESPACE alea:: DESTINATION ${ALEA_CMAKE_INSTALL_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/aleaConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/aleaConfig.cmake INSTALL_DESTINATION ${ALEA_CMAKE_INSTALL_DIR}
  PATH_VARS ALEA_RULESETS_INSTALL_DIR)
# Before 1.0 a minor version may change the API: 0.2 accepts 0.2.x only.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/aleaConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/aleaConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/aleaConfigVersion.cmake
        DESTINATION ${ALEA_CMAKE_INSTALL_DIR})
configure_file(${PROJECT_SOURCE_DIR}/cmake/alea.pc.in ${CMAKE_CURRENT_BINARY_DIR}/alea.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/alea.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
