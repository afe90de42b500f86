# Install rules: the library, its headers, a CMake package (find_package(reach) gives
# reach::reach, and reach::formats where it is built (formats/CMakeLists.txt), with a version
# file) and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS reach EXPORT reachTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/reach DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT reachTargets NAMESPACE reach:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/reach)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/reachConfig.cmake.in
  ${PROJECT_BINARY_DIR}/reachConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/reach)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/reachConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/reachConfig.cmake ${PROJECT_BINARY_DIR}/reachConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/reach)

# pkg-config: the precision is part of the interface, so it travels in Cflags.
if(REACH_DOUBLE)
  set(REACH_PC_CFLAGS "-DREACH_DOUBLE")
else()
  set(REACH_PC_CFLAGS "")
endif()
if(REACH_SHARED)
  string(APPEND REACH_PC_CFLAGS " -DREACH_SHARED")
endif()
# Relative to the .pc file's own folder, so an installed tree can be moved.
file(RELATIVE_PATH REACH_PC_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
configure_file(${PROJECT_SOURCE_DIR}/cmake/reach.pc.in ${PROJECT_BINARY_DIR}/reach.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/reach.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
