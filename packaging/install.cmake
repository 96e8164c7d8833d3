# Install rules (issue 19): `cmake --install build/release --prefix /usr` (with DESTDIR=DIR for a
# staging tree) lays out Plateau the Debian way. Included from CMakeLists.txt.
include(GNUInstallDirs)

# Debian's games go to /usr/games: BINDIR/../games under any prefix.
set(PLATEAU_GAMESDIR "${CMAKE_INSTALL_BINDIR}/../games")
cmake_path(NORMAL_PATH PLATEAU_GAMESDIR)
set(PLATEAU_WEBDIR "${CMAKE_INSTALL_DATADIR}/plateau/web")

# `plateau serve` finds the installed web client relative to its own executable
# (src/cli/install_paths.h), so the path from BINDIR to the web directory.
cmake_path(RELATIVE_PATH PLATEAU_WEBDIR BASE_DIRECTORY "${CMAKE_INSTALL_BINDIR}"
           OUTPUT_VARIABLE plateau_bin_to_web)
target_compile_definitions(plateau PRIVATE PLATEAU_BIN_TO_WEB="${plateau_bin_to_web}")

install(TARGETS plateau RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS biloba biloba-server RUNTIME DESTINATION ${PLATEAU_GAMESDIR})

# The browser client as `make web` (npm run build) leaves it in web/dist; without Node.js there is
# none and the server answers / with 404. Source maps stay out (debugging aids, 3/4 of the size).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/web/dist/ DESTINATION ${PLATEAU_WEBDIR} OPTIONAL
        PATTERN "*.map" EXCLUDE)

# Man pages, gzipped as Debian ships them (-n: no name or time stamp, a reproducible file).
find_program(GZIP_EXECUTABLE gzip REQUIRED)
set(plateau_man_gz)
foreach(page plateau plateau-serve plateau-mail-in plateau-store biloba biloba-server)
  set(gz ${PROJECT_BINARY_DIR}/man/${page}.6.gz)
  add_custom_command(OUTPUT ${gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${GZIP_EXECUTABLE} -9n -c ${PROJECT_SOURCE_DIR}/docs/man/${page}.6 > ${gz}
    DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/${page}.6
    COMMENT "gzip ${page}.6")
  list(APPEND plateau_man_gz ${gz})
endforeach()
add_custom_target(plateau_man ALL DEPENDS ${plateau_man_gz})
install(FILES ${plateau_man_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man6)

install(FILES packaging/biloba.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES packaging/biloba.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES packaging/plateau.service DESTINATION lib/systemd/system)
# Debian's policy for a native package: the copyright file and the changelog, gzipped.
set(plateau_changelog_gz ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(OUTPUT ${plateau_changelog_gz}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging
  COMMAND ${GZIP_EXECUTABLE} -9n -c ${PROJECT_SOURCE_DIR}/packaging/changelog > ${plateau_changelog_gz}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog
  COMMENT "gzip changelog")
add_custom_target(plateau_changelog ALL DEPENDS ${plateau_changelog_gz})
install(FILES packaging/copyright ${plateau_changelog_gz} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The example configuration file: in /etc for the /usr prefix (GNUInstallDirs' rule for
# SYSCONFDIR, decided at install time since `cmake --install --prefix` may change the prefix),
# else in PREFIX/etc. (file(INSTALL) puts DESTDIR in front of an absolute destination itself.)
set(plateau_ini "${PROJECT_SOURCE_DIR}/packaging/plateau.ini")
install(CODE "
  if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
    set(plateau_etc \"/etc/plateau\")
  else()
    set(plateau_etc \"\${CMAKE_INSTALL_PREFIX}/etc/plateau\")
  endif()
  file(INSTALL \"${plateau_ini}\" DESTINATION \"\${plateau_etc}\")
")
