#!/usr/bin/env bash
# Verbatim @VERSION@ for Linux x86-64: one file that unpacks itself once, then starts the app.
#   ./Verbatim.run                      start the desktop app
#   ./Verbatim.run --cli COMMAND ...    the command line (verbatim COMMAND ...)
#   ./Verbatim.run --install-desktop-entry   add Verbatim to the application menu
#   ./Verbatim.run --extract-to DIR     unpack the bundle folder into DIR and stop
# The bundle is unpacked to ~/.cache/verbatim/bundle-@BUNDLE_ID@ on first start (a few seconds);
# later starts reuse it. Your notes and models live in the data folder, never in the cache.
set -euo pipefail
PAYLOAD_OFFSET=@PAYLOAD_OFFSET@
BUNDLE_ID=@BUNDLE_ID@
self="$(realpath "$0")"

unpack() {  # unpack the payload (a .tar.gz of the bundle folder) into a new folder $1, atomically
    local target="$1" partial="$1.partial.$$"
    mkdir -p "$partial"
    trap 'rm -rf "$partial"' EXIT
    tail -c "+$((10#$PAYLOAD_OFFSET + 1))" "$self" | tar -xzf - -C "$partial"
    mv -T "$partial" "$target" 2>/dev/null || rm -rf "$partial"  # another start got there first
    trap - EXIT
}

if [ "${1:-}" = "--extract-to" ]; then
    unpack "$(realpath -m "${2:?--extract-to needs a folder}")"
    exit 0
fi
bundle="${XDG_CACHE_HOME:-$HOME/.cache}/verbatim/bundle-$BUNDLE_ID"
if [ ! -x "$bundle/verbatim-app" ]; then
    echo "Verbatim: unpacking to $bundle (first start only)…" >&2
    mkdir -p "$(dirname "$bundle")"
    unpack "$bundle"
fi
if [ "${1:-}" = "--install-desktop-entry" ]; then
    exec "$bundle/install-desktop-entry.sh" "$self"
fi
exec "$bundle/verbatim-app" "$@"
__PAYLOAD_BELOW__
