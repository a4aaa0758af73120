# userspace/cmake/HfInstall.cmake - what "cmake --install" puts where (the
# Debian packages in debian/ are made from it):
#   bin/hfperf, sbin/hfctl, lib/tc/q_hfq.so (the tc plugin), lib/libhyperframe (static, or shared with
#   HF_SHARED_LIB=ON: libhyperframe.so.0), include/hyperframe/*.h and the
#   uapi header include/linux/hyperframe.h, lib/pkgconfig/hyperframe.pc,
#   the man pages (hfctl.8, hfperf.1, hyperframe.7), bash completion for
#   hfctl, the Wireshark Lua dissector in Wireshark's global plugin folder,
#   the systemd unit of "hfctl exporter" (HF_SYSTEMDUNITDIR), and the
#   generic netlink family's YNL spec, share/hyperframe/netlink/, for the
#   kernel's YNL tools (cli.py --spec).
# Every destination is relative to the prefix unless set absolute, so
# "cmake --install build --prefix DIR" works as any user.
include(GNUInstallDirs)

set(HF_SYSTEMDUNITDIR "${CMAKE_INSTALL_LIBDIR}/systemd/system" CACHE STRING
    "Where the hfctl-exporter.service unit goes (Debian: /lib/systemd/system)")
set(HF_BASHCOMPLETIONDIR "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" CACHE STRING
    "Where hfctl's bash completion goes")
set(HF_WIRESHARK_PLUGINDIR "${CMAKE_INSTALL_LIBDIR}/wireshark/plugins" CACHE STRING
    "Wireshark's global plugin folder, where its Lua dissectors are loaded from")

install(TARGETS hfctl RUNTIME DESTINATION "${CMAKE_INSTALL_SBINDIR}" COMPONENT tools)
install(TARGETS q_hfq LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/tc" COMPONENT tools)
install(TARGETS hfperf RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT tools)
install(TARGETS hyperframe
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT lib NAMELINK_COMPONENT dev
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/hyperframe"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(FILES "${HF_UAPI_DIR}/linux/hyperframe.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/linux" COMPONENT dev)

# pkg-config: absolute paths, whatever the install directories say.
foreach(kind LIBDIR INCLUDEDIR SBINDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(HF_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(HF_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
configure_file("${PROJECT_SOURCE_DIR}/dist/hyperframe.pc.in" "${PROJECT_BINARY_DIR}/hyperframe.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/hyperframe.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT dev)

set(HF_SBINDIR "${CMAKE_INSTALL_FULL_SBINDIR}")
configure_file("${PROJECT_SOURCE_DIR}/dist/hfctl-exporter.service"
  "${PROJECT_BINARY_DIR}/hfctl-exporter.service" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/hfctl-exporter.service"
  DESTINATION "${HF_SYSTEMDUNITDIR}" COMPONENT tools)
install(FILES "${PROJECT_SOURCE_DIR}/dist/hfctl.bash-completion"
  DESTINATION "${HF_BASHCOMPLETIONDIR}" RENAME hfctl COMPONENT tools)
install(FILES "${HF_TOP_DIR}/tools/wireshark/hyperframe.lua"
  DESTINATION "${HF_WIRESHARK_PLUGINDIR}" COMPONENT tools)
install(FILES "${HF_TOP_DIR}/docs/netlink/hyperframe.yaml"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/hyperframe/netlink" COMPONENT tools)
install(FILES "${HF_TOP_DIR}/docs/hfctl.8" DESTINATION "${CMAKE_INSTALL_MANDIR}/man8" COMPONENT tools)
install(FILES "${HF_TOP_DIR}/docs/hfperf.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT tools)
install(FILES "${HF_TOP_DIR}/docs/hyperframe.7" DESTINATION "${CMAKE_INSTALL_MANDIR}/man7" COMPONENT tools)
