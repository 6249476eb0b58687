#!/usr/bin/env bash
# Writes this folder's SOPS fixtures with the real sops and Debian's age (README.md says what each file is).
# Run from anywhere: `bash src/test/resources/io/gitfn/secrets/sops/make-fixtures.sh`. Keeps the two identities if
# they exist, so that regenerating changes only the encrypted files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
source ../../../../../../../scripts/testbed.versions
sops="${GITFN_TESTENV_DIR:-$HOME/.cache/gitfn-testenv}/sops-${SOPS_VERSION}/sops"
[[ -x "$sops" ]] || { echo "no $sops: run bash scripts/build-testbed.sh" >&2; exit 1; }
for i in 1 2; do
  [[ -f identity-$i.agekey ]] || age-keygen -o identity-$i.agekey
done
first=$(age-keygen -y identity-1.agekey)
second=$(age-keygen -y identity-2.agekey)

"$sops" encrypt --age "$first,$second" secret.yaml >secret.sops.yaml
"$sops" encrypt --age "$first,$second" --encrypted-regex '^(data|stringData)$' secret.yaml >secret-regex.sops.yaml
SOPS_AGE_KEY_FILE=identity-1.agekey "$sops" decrypt --output-type json secret.sops.yaml >secret.decrypted.json
# A Secret as gitfn applies it (secret.yaml's owner_unencrypted is no Secret field), in both layouts.
"$sops" encrypt --age "$first,$second" orders-db.yaml >orders-db.sops.yaml
"$sops" encrypt --age "$first,$second" --encrypted-regex '^(data|stringData)$' orders-db.yaml >orders-db-flux.sops.yaml
# A second version of the same file: sops set keeps the data key and re-encrypts the one value.
cp secret.sops.yaml secret-v2.sops.yaml
SOPS_AGE_KEY_FILE=identity-2.agekey "$sops" set secret-v2.sops.yaml '["stringData"]["password"]' '"rotated-password-2"'

# Each file's data key, as each identity unwraps it from its own recipient's enc (the n-th armored block is the
# n-th recipient's); both must agree. sops set keeps the key, so secret-v2 has secret's.
enc() { awk -v n="$2" '/BEGIN AGE ENCRYPTED FILE/ {i++} i == n {sub(/^ +/, ""); print} /END AGE ENCRYPTED FILE/ && i == n {exit}' "$1"; }
data_key() {
  local one two
  one=$(enc "$1" 1 | age -d -i identity-1.agekey | od -An -tx1 -v | tr -d ' \n')
  two=$(enc "$1" 2 | age -d -i identity-2.agekey | od -An -tx1 -v | tr -d ' \n')
  [[ "$one" == "$two" && ${#one} == 64 ]] || { echo "the identities disagree on $1's data key" >&2; exit 1; }
  echo "$one"
}
data_key secret.sops.yaml >secret.data-key.hex
data_key secret-regex.sops.yaml >secret-regex.data-key.hex
[[ "$(data_key secret-v2.sops.yaml)" == "$(cat secret.data-key.hex)" ]] || { echo "sops set changed the data key" >&2; exit 1; }
echo "fixtures written with $("$sops" --version --disable-version-check | head -1)"
