# mf_embed_shaders(<target> <glsl files...>): compiles GLSL to SPIR-V with glslc at build time and
# makes each available to <target>'s sources as `#include "shaders/<file>.inc"`, a comma-separated
# list of 32-bit words to put inside an array initialiser.
find_program(MF_GLSLC glslc REQUIRED)

function(mf_embed_shaders target)
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/shaders)
  file(MAKE_DIRECTORY ${out_dir})
  set(outputs)
  foreach(source IN LISTS ARGN)
    get_filename_component(name ${source} NAME)
    set(output ${out_dir}/${name}.inc)
    add_custom_command(
      OUTPUT ${output}
      COMMAND ${MF_GLSLC} --target-env=vulkan1.2 -O -Werror -mfmt=num -MD -MF ${output}.d -o ${output}
              ${CMAKE_CURRENT_SOURCE_DIR}/${source}
      DEPENDS ${source}
      DEPFILE ${output}.d
      COMMENT "glslc ${source}"
      VERBATIM)
    list(APPEND outputs ${output})
  endforeach()
  target_sources(${target} PRIVATE ${outputs})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
endfunction()
