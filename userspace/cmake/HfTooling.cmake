# userspace/cmake/HfTooling.cmake - the code-hygiene targets, over the C++
# userspace code only (never the kernel C):
#   format-check  clang-format --dry-run -Werror over userspace/**/*.{cc,h}
#   format        the same, rewriting the files in place
#   tidy          clang-tidy over every userspace .cc in compile_commands.json
# Both tools are pinned to version 14 (their output differs between versions);
# the configuration is the repository's .clang-format and .clang-tidy.
set(hf_code_dirs include lib hfctl hfperf selftests tests fabric)

set(hf_format_globs)
foreach(dir IN LISTS hf_code_dirs)
  list(APPEND hf_format_globs "${PROJECT_SOURCE_DIR}/${dir}/*.cc" "${PROJECT_SOURCE_DIR}/${dir}/*.h")
endforeach()
file(GLOB_RECURSE HF_FORMAT_FILES CONFIGURE_DEPENDS ${hf_format_globs})

# Only files that are compiled (and so in compile_commands.json) can be tidied.
set(hf_tidy_globs "${PROJECT_SOURCE_DIR}/lib/*.cc" "${PROJECT_SOURCE_DIR}/hfctl/*.cc"
    "${PROJECT_SOURCE_DIR}/hfperf/*.cc" "${PROJECT_SOURCE_DIR}/selftests/*.cc")
# The provider is built only where libfabric-dev is.
if(TARGET hf-fi)
  list(APPEND hf_tidy_globs "${PROJECT_SOURCE_DIR}/fabric/*.cc")
endif()
foreach(target_dir IN ITEMS hyperframe_tests:lib hfctl_tests:hfctl hfperf_tests:hfperf hfcore_tests:core
        fabric_tests:fabric)
  string(REPLACE ":" ";" pair "${target_dir}")
  list(GET pair 0 tgt)
  list(GET pair 1 dir)
  if(TARGET ${tgt})
    list(APPEND hf_tidy_globs "${PROJECT_SOURCE_DIR}/tests/${dir}/*.cc")
  endif()
endforeach()
file(GLOB_RECURSE HF_TIDY_FILES CONFIGURE_DEPENDS ${hf_tidy_globs})

find_program(HF_CLANG_FORMAT NAMES clang-format-14 DOC "clang-format, version 14")
find_program(HF_CLANG_TIDY NAMES clang-tidy-14 DOC "clang-tidy, version 14")

if(HF_CLANG_FORMAT)
  add_custom_target(format-check
    COMMAND "${HF_CLANG_FORMAT}" --style=file --dry-run -Werror ${HF_FORMAT_FILES}
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    COMMENT "clang-format-14 --dry-run over the userspace C++ code"
    VERBATIM)
  add_custom_target(format
    COMMAND "${HF_CLANG_FORMAT}" --style=file -i ${HF_FORMAT_FILES}
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    COMMENT "clang-format-14 -i over the userspace C++ code"
    VERBATIM)
else()
  foreach(tgt IN ITEMS format-check format)
    add_custom_target(${tgt}
      COMMAND "${CMAKE_COMMAND}" -E echo "${tgt}: clang-format-14 not found"
      COMMAND "${CMAKE_COMMAND}" -E false
      VERBATIM)
  endforeach()
endif()

if(HF_CLANG_TIDY)
  # One stamp per file, so "cmake --build ... --target tidy -j N" runs files in
  # parallel and a second run redoes only files whose inputs changed (the
  # file, any userspace header, or a .clang-tidy).
  set(hf_tidy_inputs "${HF_TOP_DIR}/.clang-tidy" "${PROJECT_SOURCE_DIR}/tests/.clang-tidy")
  foreach(file IN LISTS HF_FORMAT_FILES)
    if(file MATCHES "\\.h$")
      list(APPEND hf_tidy_inputs "${file}")
    endif()
  endforeach()
  set(hf_tidy_stamps)
  foreach(file IN LISTS HF_TIDY_FILES)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${file}")
    set(stamp "${PROJECT_BINARY_DIR}/tidy/${rel}.stamp")
    cmake_path(GET stamp PARENT_PATH stamp_dir)
    add_custom_command(OUTPUT "${stamp}"
      COMMAND "${HF_CLANG_TIDY}" -p "${PROJECT_BINARY_DIR}" --quiet "${file}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${stamp_dir}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "${file}" ${hf_tidy_inputs}
      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
      COMMENT "clang-tidy-14 ${rel}"
      VERBATIM)
    list(APPEND hf_tidy_stamps "${stamp}")
  endforeach()
  add_custom_target(tidy DEPENDS ${hf_tidy_stamps})
else()
  add_custom_target(tidy
    COMMAND "${CMAKE_COMMAND}" -E echo "tidy: clang-tidy-14 not found"
    COMMAND "${CMAKE_COMMAND}" -E false
    VERBATIM)
endif()
