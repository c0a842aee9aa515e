# Compiler settings shared by every target of the project.

if(MF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()

if(MF_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MF_BUILD_FUZZERS needs clang: configure with -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14")
  endif()
  # Debian's clang 14 cannot compile libstdc++ 12's range adaptors; the code avoids std::views, so
  # fuzz builds use the system libstdc++ (libFuzzer's own runtime is built against it).
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# The runtime layers (mf_core, mf_anim, mf_skel) use no exceptions: errors are mf::Expected / mf::Status
# values. With MF_RUNTIME_NO_EXCEPTIONS the directory that calls this compiles with -fno-exceptions
# (src/core, src/anim, src/skel and their tests); the offline layer and the tools keep exceptions.
function(mf_runtime_directory)
  if(MF_RUNTIME_NO_EXCEPTIONS)
    add_compile_options(-fno-exceptions)
  endif()
endfunction()

# Warnings are errors on our own code; third-party headers come in as system includes. Designated
# initialisers leave the other fields at their defaults on purpose, so g++'s warning about omitted
# fields is off. g++ 12 at -O3 reports a false -Wrestrict inside std::string's own code (GCC bug
# 105329), so that check is off for g++.
function(mf_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror -Wno-missing-field-initializers)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
