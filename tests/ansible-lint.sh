#!/bin/sh
# Description: the Ansible role and playbook under contrib/ansible pass
# ansible-lint's production profile (offline, no cache left behind).
set -u
: "${TOP_SRCDIR:?}"
command -v ansible-lint >/dev/null ||
    { echo "skip: no ansible-lint (apt-get install ansible-lint)"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tp-ansible-lint.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cp -R "$TOP_SRCDIR/contrib/ansible" "$dir/" && chmod -R u+w "$dir/ansible" &&
    cd "$dir/ansible" || exit 1
HOME=$dir XDG_CACHE_HOME=$dir/.cache ANSIBLE_HOME=$dir/.ansible \
    ansible-lint --offline --nocolor --profile production . > "$dir/out" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$dir/out"; echo "FAIL: ansible-lint exited $rc"; exit 1; }
echo "contrib/ansible is ansible-lint clean (production profile)"
