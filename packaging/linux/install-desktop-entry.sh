#!/usr/bin/env bash
# Add Verbatim to the desktop's application menu for this user (no root needed):
#   ./install-desktop-entry.sh [PROGRAM]
# PROGRAM is what the menu entry starts: by default the verbatim-app beside this script; the
# single-file build passes its own path. Remove with: ./install-desktop-entry.sh --remove
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/verbatim.desktop" "$icons/verbatim.png"
    echo "Removed the Verbatim menu entry."
    exit 0
fi
program="$(realpath "${1:-$here/verbatim-app}")"
mkdir -p "$apps" "$icons"
cp "$here/verbatim.png" "$icons/verbatim.png"
# Exec and TryExec take the program's absolute path, quoted as the desktop entry spec asks.
sed -e "s|^Exec=.*|Exec=\"$program\"|" -e "s|^TryExec=.*|TryExec=$program|" \
    "$here/verbatim.desktop" > "$apps/verbatim.desktop"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$apps" || true
echo "Added Verbatim to the application menu ($apps/verbatim.desktop -> $program)."
