# CLI: the README's verb table is the binary's --help.
source "$(dirname "$0")/lib.sh"
run 0 bash "$VOXKIT_SOURCE_DIR/scripts/readme_verbs.sh" "$VOXKIT" --check "$VOXKIT_SOURCE_DIR/README.md"
finish
