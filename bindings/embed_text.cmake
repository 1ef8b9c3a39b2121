# Writes the text of IN as the default export of the ES module OUT:
#   cmake -DIN=file -DOUT=file.mjs -P embed_text.cmake
# npm/src/threaded_module.js starts the threaded build's Web Workers from
# this text (a blob: URL), so no bundler or dev server ever rewrites the
# worker script on its way to the browser.
file(READ "${IN}" text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "`" "\\`" text "${text}")
string(REPLACE "\${" "\\\${" text "${text}")
get_filename_component(name "${IN}" NAME)
file(WRITE "${OUT}" "// Generated from ${name} by bindings/embed_text.cmake: its text, for blob: URLs.\nexport default `${text}`;\n")
