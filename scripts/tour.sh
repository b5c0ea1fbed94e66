#!/usr/bin/env bash
# The README's "Using it" walk-through, run for real: every example in order against a running
# catalogd, each variable taken from an earlier answer, creating everything the examples use.
#
#   make run                              # in another terminal
#   scripts/tour.sh                       # localhost:8080, a development token for a tenant of its own
#   BASE=http://host:port TOKEN=… scripts/tour.sh
#
# The lines between "tour:begin" and "tour:end" are the README's walk-through line for line (the
# test in test/tour fails when they differ, and runs this script against a fresh service). Around
# them, the curl function below turns each example into a step of a transcript: it prints the
# command, runs it, prints the answer and stops the tour, with the command and the answer, at the
# first unexpected HTTP status (201 for a POST, 200 otherwise).
#
# Needs bash and curl only: no jq. Answers are compact JSON and `uuid` (in the walk-through) reads
# the first "uuid" of one with the shell alone.
set -euo pipefail

cd "$(dirname "$0")/.."
BASE=${BASE:-localhost:8080}
if [ -z "${TOKEN:-}" ]; then
  # A tenant of its own, by default. The walk-through also runs again in one tenant (its codes end
  # with a random suffix, the locale is looked up before it is created): TOKEN=$(./bin/catalogd token)
  # is tenant dev, as in the README.
  TOKEN=$(go run ./cmd/catalogd token -tenant "tour-$(date +%s)-$$")
fi

exec 3>&1 # the transcript: the script's standard output, also inside $(…)

# shown is an argument as the transcript prints it: "$H" and "$J" for the headers, quoted when needed.
shown() {
  case $1 in
    "$H") printf '%s' '"$H"' ;;
    "$J") printf '%s' '"$J"' ;;
    *[!A-Za-z0-9_./:@%+=,-]* | '') printf "'%s'" "${1//\'/\'\\\'\'}" ;;
    *) printf '%s' "$1" ;;
  esac
}

curl() {
  local method=GET a prev= line='$ curl' answer status want rc=0
  for a in "$@"; do
    [ "$prev" = -X ] && method=$a
    prev=$a
    line+=" $(shown "$a")"
  done
  want=200
  [ "$method" = POST ] && want=201
  printf '\n%s\n' "$line" >&3
  answer=$(command curl --max-time 60 -w '\n%{http_code}' "$@") || rc=$?
  if [ "$rc" != 0 ]; then
    printf 'tour: FAILED: %s\n  curl exit %s: no answer from %s\n' "$line" "$rc" "$BASE" >&2
    return 1
  fi
  status=${answer##*$'\n'}
  answer=${answer%$'\n'*}
  printf '%s %s\n' "$status" "$answer" >&3
  if [ "$status" != "$want" ]; then
    printf 'tour: FAILED: %s\n  HTTP %s, want %s\n  %s\n' "$line" "$status" "$want" "$answer" >&2
    return 1
  fi
  # The answer also goes to standard output, for `| uuid`, unless that is the transcript itself.
  if ! [ /dev/fd/1 -ef /dev/fd/3 ]; then
    printf '%s\n' "$answer"
  fi
}

# tour:begin
H="Authorization: Bearer $TOKEN"
J="Content-Type: application/json"   # bodies are JSON: -d alone sends a form (415)
# uuid prints the first "uuid" of an answer: the created object's, or a list's first item's
# (the same with jq: jq -r 'first(.. | .uuid? // empty)')
uuid() {
  local j; j=$(cat)
  case $j in
    *'"uuid":"'*) j=${j#*'"uuid":"'}; echo "${j%%\"*}" ;;
    *'"items":[]'*) return 1 ;;   # an empty list: nothing found
    *) [ -z "$j" ] || echo "no uuid in: $j" >&2; return 1 ;;
  esac
}
R=$RANDOM$RANDOM   # this paste's suffix for codes (unique in a tenant), so that the examples can run again

# a locale (found by its code when an earlier run made it), then an attribute with localized content
LOCALE=$(curl -s -g -H "$H" "$BASE/v1/locales?codes[eq]=en-US" | uuid) ||
  LOCALE=$(curl -s -H "$H" -X POST $BASE/v1/locales -H "$J" -d '{"code":"en-US"}' | uuid)
ATTR=$(curl -s -H "$H" -X POST $BASE/v1/attributes -H "$J" -d '{"code":"color-'$R'","displayName":"Color"}' | uuid)
SIZE=$(curl -s -H "$H" -X POST $BASE/v1/attributes/bulk -H "$J" -d '[{"code":"size-'$R'"},{"code":"material-'$R'"}]' | uuid)
curl -s -H "$H" -X POST $BASE/v1/attributes/$ATTR/contents \
     -H "$J" -d '{"localeUuid":"'$LOCALE'","displayName":"Colour","description":"Main colour"}'

# lists: field[operator] filters, ordering, pages, include/expand
curl -s -g -H "$H" "$BASE/v1/attributes?code[contains]=col&statuses[eq]=draft&code[order]=asc&page=1&size=20"
# keyset pages: a page's pagination.nextCursor (null on the last page) is the next page's cursor
NEXT=$(curl -s -g -H "$H" "$BASE/v1/attributes?code[order]=asc&size=2" | { j=$(cat); j=${j#*'"nextCursor":"'}; echo "${j%%\"*}"; })
curl -s -g -H "$H" "$BASE/v1/attributes?code[order]=asc&size=2&cursor=$NEXT"
curl -s -g -H "$H" "$BASE/v1/attributes/$ATTR?include[contents]=true&expand[contents]=true"

# lifecycle: one at a time, or in bulk
curl -s -H "$H" -X PATCH $BASE/v1/attributes/$ATTR/actions/lifecycle -H "$J" -d '{"transition":"publish"}'
curl -s -H "$H" -X PATCH $BASE/v1/attributes/bulk/actions/lifecycle \
     -H "$J" -d '{"transition":"remove","uuids":["'$SIZE'"]}'

# a type group with two input types: a localizable text and a decimal
GROUP=$(curl -s -H "$H" -X POST $BASE/v1/type-groups -H "$J" -d '{"code":"marketing-'$R'","entityType":"product"}' | uuid)
TITLE=$(curl -s -H "$H" -X POST $BASE/v1/input-types \
     -H "$J" -d '{"typeGroupUuid":"'$GROUP'","code":"title-'$R'","dataType":"text","isLocalizable":true}' | uuid)
PRICE=$(curl -s -H "$H" -X POST $BASE/v1/input-types \
     -H "$J" -d '{"typeGroupUuid":"'$GROUP'","code":"price-'$R'","dataType":"decimal","constraints":{"min":0}}' | uuid)

# an asset type, and a family that requires a title and at least one image
IMAGES=$(curl -s -H "$H" -X POST $BASE/v1/product-asset-types -H "$J" -d '{"code":"images-'$R'","isFeaturedSource":true}' | uuid)
FAM=$(curl -s -H "$H" -X POST $BASE/v1/families -H "$J" -d '{"code":"apparel-'$R'","displayName":"Apparel"}' | uuid)
curl -s -H "$H" -X POST $BASE/v1/families/$FAM/input-types -H "$J" -d '{"inputTypeUuid":"'$TITLE'","requirementLevel":"required"}'
curl -s -H "$H" -X POST $BASE/v1/families/$FAM/asset-types \
     -H "$J" -d '{"productAssetTypeUuid":"'$IMAGES'","requirementLevel":"required","minCount":1}'

# a sales channel in en-US that requires a price of its own
WEB=$(curl -s -H "$H" -X POST $BASE/v1/channels -H "$J" -d '{"code":"web-'$R'","localeUuids":["'$LOCALE'"]}' | uuid)
curl -s -H "$H" -X POST $BASE/v1/channels/$WEB/input-types \
     -H "$J" -d '{"inputTypeUuid":"'$PRICE'","requirementLevel":"required","scoping":"channel"}'

# a product and its variant; the parent's title and image count for the variant too
PARENT=$(curl -s -H "$H" -X POST $BASE/v1/products \
     -H "$J" -d '{"code":"TSHIRT-'$R'","kind":"variant_parent","familyUuid":"'$FAM'"}' | uuid)
VARIANT=$(curl -s -H "$H" -X POST $BASE/v1/products \
     -H "$J" -d '{"code":"TSHIRT-RED-'$R'","kind":"variant","familyUuid":"'$FAM'","parentUuid":"'$PARENT'"}' | uuid)
curl -s -H "$H" -X POST $BASE/v1/products/$PARENT/input-values \
     -H "$J" -d '{"inputTypeUuid":"'$TITLE'","localeUuid":"'$LOCALE'","value":"Red T-shirt"}'   # the variant inherits it
ASSET=$(curl -s -H "$H" -X POST $BASE/v1/assets -H "$J" -d '{"code":"tshirt-red-front-'$R'","category":"image"}' | uuid)
curl -s -H "$H" -X POST $BASE/v1/products/$PARENT/assets \
     -H "$J" -d '{"assetUuid":"'$ASSET'","productAssetTypeUuid":"'$IMAGES'","displayPriority":0}'

# a publication on the channel: readiness says what is missing; then the price, activation, a schedule
PUB=$(curl -s -H "$H" -X POST $BASE/v1/products/$VARIANT/publications -H "$J" -d '{"channelUuid":"'$WEB'"}' | uuid)
curl -s -H "$H" $BASE/v1/products/$VARIANT/publications/$PUB/readiness    # {"ready":false,"missing":[…]}: draft, no price
curl -s -H "$H" -X POST $BASE/v1/products/$VARIANT/input-values \
     -H "$J" -d '{"inputTypeUuid":"'$PRICE'","channelUuid":"'$WEB'","value":19.99}'   # a decimal: a JSON number or a string
curl -s -H "$H" -X PATCH $BASE/v1/products/bulk/actions/lifecycle \
     -H "$J" -d '{"transition":"activate","uuids":["'$PARENT'","'$VARIANT'"]}'
curl -s -H "$H" $BASE/v1/products/$VARIANT/publications/$PUB/readiness    # {"ready":true,"missing":[]}
curl -s -H "$H" -X POST $BASE/v1/products/$VARIANT/publications/$PUB/schedules \
     -H "$J" -d '{"transition":"publish","scheduledAt":"2030-01-01T09:00:00Z"}'

# the whole product in one GET
curl -s -g -H "$H" "$BASE/v1/products/$VARIANT?expand[productAttributes]=true&expand[productAssets]=true\
&expand[productCategories]=true&expand[productTags]=true&expand[productRelations]=true&expand[inputValues]=true\
&expand[publications]=true&expand[variants]=true"

# an asset file in two steps: initiate (a pre-signed URL to send the bytes to), the transfer, complete
UP=$(curl -s -H "$H" -X POST $BASE/v1/assets/$ASSET/files/actions/initiate-upload \
     -H "$J" -d '{"kind":"original","fileName":"care.txt","contentType":"text/plain","sizeBytes":18}')
FILE=$(echo "$UP" | uuid)
UPLOAD_URL=${UP#*'"uploadUrl":"'}; UPLOAD_URL=${UPLOAD_URL%%'"'*}   # with jq: jq -r .uploadUrl
curl -s -X PUT "$UPLOAD_URL" -H "Content-Type: text/plain" --data-binary 'Machine wash cold.'   # no token: the URL is signed
curl -s -H "$H" -X PATCH $BASE/v1/assets/$ASSET/files/$FILE/actions/complete-upload    # "status":"uploaded"
curl -s -H "$H" $BASE/v1/assets/$ASSET/files/$FILE    # "downloadUrl": a signed GET of the bytes, valid 15 minutes

# webhooks: a subscription (the answer carries its signing secret), its event types, its deliveries
SUB=$(curl -s -H "$H" -X POST $BASE/v1/webhook-subscriptions \
     -H "$J" -d '{"displayName":"erp","targetUrl":"https://erp.example.com/hooks"}' | uuid)
curl -s -g -H "$H" "$BASE/v1/webhook-event-types?name[starts]=attribute.&name[order]=asc"
ET=$(curl -s -g -H "$H" "$BASE/v1/webhook-event-types?names[eq]=attribute.created" | uuid)
curl -s -H "$H" -X POST $BASE/v1/webhook-subscriptions/$SUB/event-types -H "$J" -d '{"webhookEventTypeUuid":"'$ET'"}'
curl -s -H "$H" -X POST $BASE/v1/attributes -H "$J" -d '{"code":"weight-'$R'"}'    # an attribute.created event: one delivery
DEL=$(curl -s -H "$H" $BASE/v1/webhook-subscriptions/$SUB/deliveries | uuid)   # the delivery's uuid: its webhook-id header
curl -s -H "$H" $BASE/v1/webhook-subscriptions/$SUB/deliveries/$DEL/attempts
# the delivery names its event (eventUuid), the event's uuid in the event log
EVENT=$(curl -s -H "$H" $BASE/v1/webhook-subscriptions/$SUB/deliveries/$DEL | { j=$(cat); j=${j#*'"eventUuid":"'}; echo "${j%%\"*}"; })
curl -s -g -H "$H" "$BASE/v1/events?uuids[eq]=$EVENT"    # the same attribute.created, with its payload
# tour:end

printf '\ntour complete\n'
