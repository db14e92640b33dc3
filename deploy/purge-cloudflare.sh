#!/bin/sh
# PURGE_CMD for a site behind Cloudflare: forgets the cached copies of the routes that
# changed (CHANGED_ROUTES, one absolute path a line; SITE_URL from site.yaml), 30 addresses
# a call. CF_ZONE and CF_API_TOKEN (a token allowed only "Cache Purge") come from the
# service's environment file. Install as /etc/harmonia/purge.sh (root, 0755).
set -eu
printf '%s\n' $CHANGED_ROUTES | sed "s|^|$SITE_URL|" | xargs -n 30 sh -c '
  files=$(printf "\"%s\"," "$@" | sed "s/,\$//")
  curl -fsS -X POST "https://api.cloudflare.com/client/v4/zones/$CF_ZONE/purge_cache" \
    -H "Authorization: Bearer $CF_API_TOKEN" -H "Content-Type: application/json" \
    --data "{\"files\":[$files]}" >/dev/null' sh
