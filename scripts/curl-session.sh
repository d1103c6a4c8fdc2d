#!/usr/bin/env bash
# A scripted browser session with curl: sign up (confirming the address from the outbox when the
# site asks for it), sign out, sign in, sign out. Exits non-zero with a message on any surprise.
#   scripts/curl-session.sh [BASE_URL] [OUTBOX]      defaults: http://localhost:8080/account var/outbox
set -euo pipefail
base=${1:-http://localhost:8080/account}
outbox=${2:-var/outbox}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jar="$work/cookies"
email="curl-$(date +%s%N)@example.com"
password="correct horse battery"

fail() { echo "curl-session: $*" >&2; exit 1; }
# The text of a .eml with its quoted-printable undone as far as a link needs: soft line breaks ("=" at a line's end)
# joined and "=3D" turned back into "=" (other =XX stay as they are).
mail_text() { sed -e ':a' -e '/=\r$/{N;s/=\r\n//;ba' -e '}' "$1" | sed -e 's/=3D/=/g' -e 's/\r$//'; }
token() { curl -sS -b "$jar" -c "$jar" "$base/$1" | sed -n 's/.*name="csrf_token" value="\([^"]*\)".*/\1/p' | head -n 1; }
# post PATH FIELD=VALUE… → prints "STATUS LOCATION", body in $work/body
post() {
  local path=$1; shift
  local args=()
  for field in "$@"; do args+=(--data-urlencode "$field"); done
  curl -sS -b "$jar" -c "$jar" -o "$work/body" -w '%{http_code} %{redirect_url}' "${args[@]}" "$base/$path"
}
expect_home() {
  curl -sS -b "$jar" -c "$jar" "$base/" | grep -q "Signed in as $email" || fail "the home page does not say 'Signed in as $email'"
}
sign_out() {
  local t; t=$(token "")
  [[ $(post sign_out "csrf_token=$t") == 303* ]] || fail "sign-out did not redirect"
  [[ $(curl -sS -o /dev/null -w '%{http_code}' -b "$jar" "$base/") == 302 ]] || fail "still signed in after signing out"
}
sign_in() {
  local t; t=$(token sign_in)
  [[ $(post sign_in "email=$email" "password=$password" "csrf_token=$t") == 303* ]] || fail "sign-in failed"
  expect_home
}

t=$(token sign_up)
[ -n "$t" ] || fail "no CSRF token on $base/sign_up"
result=$(post sign_up "email=$email" "password=$password" "password_confirmation=$password" "csrf_token=$t")
if [[ $result == 200* ]] && grep -q "Check your email" "$work/body"; then
  # Confirmation required: find the mail in the outbox and follow its link.
  link=""
  for _ in $(seq 1 100); do
    file=$(grep -l "^To: $email" "$outbox"/*.eml 2>/dev/null | head -n 1 || true)
    [ -n "$file" ] && link=$(mail_text "$file" | grep -o 'http[^ <>"]*/confirm?token=[A-Za-z0-9_-]*' | head -n 1)
    [ -n "$link" ] && break
    sleep 0.1
  done
  [ -n "$link" ] || fail "no confirmation mail for $email in $outbox"
  [[ $(curl -sS -o /dev/null -w '%{http_code}' -b "$jar" -c "$jar" "$link") == 302 ]] || fail "the confirmation link did not work"
  sign_in
elif [[ $result == 303* ]]; then
  expect_home
else
  fail "sign-up answered $result"
fi
sign_out
sign_in
sign_out
echo "signed up, signed out, signed in, signed out as $email"
