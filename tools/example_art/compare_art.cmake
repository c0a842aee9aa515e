# Runs make_example_art into a fresh folder and compares every PNG with the committed images, byte
# for byte. Variables: GENERATOR (the program), EXPECTED (the committed images folder), WORK_DIR
# (a scratch folder under the build tree).
foreach(var GENERATOR EXPECTED WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compare_art.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${GENERATOR}" "${WORK_DIR}" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "make_example_art failed (${result})")
endif()

file(GLOB generated RELATIVE "${WORK_DIR}" "${WORK_DIR}/*.png")
file(GLOB committed RELATIVE "${EXPECTED}" "${EXPECTED}/*.png")
list(SORT generated)
list(SORT committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "the generator writes [${generated}] but ${EXPECTED} holds [${committed}]: "
                      "regenerate with `make_example_art ${EXPECTED}`")
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
  message(FATAL_ERROR "these images differ from what make_example_art draws: ${differ}. "
                      "Regenerate with `make_example_art ${EXPECTED}` and review the pictures.")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
list(LENGTH generated count)
message(STATUS "all ${count} images match")
