# The Debian package (`make deb`, issue 19): CPack's DEB generator over the install rules of
# packaging/install.cmake. Included from CMakeLists.txt; `cpack -G DEB` in the build directory
# writes plateau_VERSION_amd64.deb.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME plateau)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Plateau maintainers <maintainers@users.noreply.a-seed-882921df.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "abstract strategy board games and their game server")
# Debian wraps the long description at 80 columns (lintian: extended-description-line-too-long).
set(CPACK_PACKAGE_DESCRIPTION
  "Plateau plays BohnDuell, Phutball and Biloba on the command line, with\n\
computer players of several strengths, and runs a game server (text,\n\
HTTP, WebSocket and a browser client) for people to play each other.\n\
It also provides biloba and biloba-server, compatible with the network\n\
protocol and replays of biloba 0.9.3.")
# The install tree is laid out under /usr (and /etc for the configuration file): install with
# DESTDIR so that install(CODE) in install.cmake sees the real prefix.
set(CPACK_SET_DESTDIR ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The biloba window finds DejaVu Sans at run time (src/gui/gui_draw.cpp find_font): not a
# shared library, so named here.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Debian's own biloba package ships /usr/games/biloba too.
set(CPACK_DEBIAN_PACKAGE_CONFLICTS biloba)
set(CPACK_DEBIAN_PACKAGE_REPLACES biloba)
# /etc/plateau/plateau.ini is a configuration file: dpkg keeps the administrator's edits.
file(WRITE ${PROJECT_BINARY_DIR}/packaging/conffiles "/etc/plateau/plateau.ini\n")
# The maintainer scripts tell systemd of the unit, restart the server on an upgrade and stop it
# on removal (packaging/debian/; the service is enabled by the administrator, not by them).
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/packaging/conffiles
    ${PROJECT_SOURCE_DIR}/packaging/debian/postinst ${PROJECT_SOURCE_DIR}/packaging/debian/prerm
    ${PROJECT_SOURCE_DIR}/packaging/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
