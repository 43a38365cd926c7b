#!/bin/sh
# Install the Debian packages named as arguments that are missing.  As root
# this runs apt-get; otherwise it prints the exact command and fails, or,
# with --soft first (make test), says that the tests needing them will
# skip and goes on.
soft=0
if [ "$1" = --soft ]; then
	soft=1
	shift
fi
missing=
for p in "$@"; do
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$s" in
	*"ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "urbscope needs these Debian packages:$missing" >&2
	echo "run as root:  apt-get install -y$missing" >&2
	if [ $soft -eq 1 ]; then
		echo "urbscope: going on without them: the tests that need" \
		    "them say 'skip'" >&2
		exit 0
	fi
	exit 1
fi
echo "installing:$missing"
apt-get update -q || exit 1
DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
