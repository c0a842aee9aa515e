# Runs a generator (make_example_art, make_example_audio) into a fresh folder and compares every file
# it writes with the committed ones, byte for byte. Variables: GENERATOR (the program), EXPECTED (the
# committed folder), WORK_DIR (a scratch folder under the build tree), PATTERN (the files compared;
# default *.png).
foreach(var GENERATOR EXPECTED WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compare_art.cmake: ${var} is not set")
  endif()
endforeach()

if(NOT DEFINED PATTERN)
  set(PATTERN "*.png")
endif()
get_filename_component(program "${GENERATOR}" NAME)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${GENERATOR}" "${WORK_DIR}" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${program} failed (${result})")
endif()

file(GLOB generated RELATIVE "${WORK_DIR}" "${WORK_DIR}/${PATTERN}")
file(GLOB committed RELATIVE "${EXPECTED}" "${EXPECTED}/${PATTERN}")
list(SORT generated)
list(SORT committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "the generator writes [${generated}] but ${EXPECTED} holds [${committed}]: "
                      "regenerate with `${program} ${EXPECTED}`")
endif()

set(differ "")
foreach(name IN LISTS generated)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK_DIR}/${name}" "${EXPECTED}/${name}"
                  RESULT_VARIABLE same)
  if(NOT same EQUAL 0)
    list(APPEND differ "${name}")
  endif()
endforeach()
if(differ)
  message(FATAL_ERROR "these files differ from what ${program} makes: ${differ}. "
                      "Regenerate with `${program} ${EXPECTED}` and review them.")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
list(LENGTH generated count)
message(STATUS "all ${count} files match")
