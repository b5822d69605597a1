#!/bin/sh
# The volume on /home/node/.n8n hides what an image puts there, so at every start the packages this
# image carries (/opt/n8n-packages) are copied into n8n's nodes folder, and the ones an earlier image
# copied but this one no longer carries are taken out. Packages installed another way are left alone.
# Then n8n's own entrypoint runs, with the same arguments (start, worker, webhook).
set -e
nodes=/home/node/.n8n/nodes
copied="$nodes/.copied-from-image"
mkdir -p "$nodes/node_modules"
if [ -f "$copied" ]; then
  while read -r name; do
    [ -n "$name" ] && rm -rf "$nodes/node_modules/$name"
  done < "$copied"
fi
: > "$copied"
for manifest in /opt/n8n-packages/*/package.json /opt/n8n-packages/@*/*/package.json; do
  [ -f "$manifest" ] || continue
  source="$(dirname "$manifest")"
  name="${source#/opt/n8n-packages/}"
  mkdir -p "$nodes/node_modules/$name"
  cp -R "$source/." "$nodes/node_modules/$name/"
  echo "$name" >> "$copied"
done
exec /docker-entrypoint.sh "$@"
