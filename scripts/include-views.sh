#!/bin/sh
# Makes the include views of layers.mk: for every folder F, OUT/F/ holds
# F -> SRC/F (the folder whole, private headers too) and, for every folder
# D that F may include, D/ with links to D's public headers and its device
# services headers only; the front end (LAYER_FRONT_END) sees a folder's
# device services in place of its public headers when it has some.  A
# file of F compiled with -I OUT/F then finds "D/public.h" and nothing
# else of D: a wrong-way include is a compile error.  A folder may be nested
# (tools/ssdsim: its view is OUT/tools/ssdsim/).  A folder SRC does not
# hold gets no view (the module's copy holds the core and the glue only).
# Usage: include-views.sh SRC OUT   (SRC holds layers.mk and the folders)
set -eu
src=$(cd "$1" && pwd)
out=$2
table=$src/layers.mk

# The words of "NAME := words" in layers.mk (continuation lines joined).
value() {
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$table" |
		sed -n "s|^$1 *:= *||p"
}

# The headers of folder $2 that folder $1 sees.
visible() {
	services=$(value "LAYER_SERVICES_$2")
	if [ "$1" = "$front_end" ] && [ -n "$services" ]; then
		echo "$services"
	else
		echo "$(value "LAYER_PUBLIC_$2") $services"
	fi
}

front_end=$(value LAYER_FRONT_END)
rm -rf "$out.new"
mkdir -p "$out.new"
for f in $(value LAYER_FOLDERS); do
	[ -d "$src/$f" ] || continue
	mkdir -p "$out.new/$f/$(dirname "$f")"
	ln -s "$src/$f" "$out.new/$f/$f"
	for d in $(value "LAYER_DEPS_$f"); do
		mkdir -p "$out.new/$f/$d"
		for h in $(visible "$f" "$d"); do
			[ -e "$src/$d/$h" ] || {
				echo "include-views: $d/$h (layers.mk) does not exist" >&2
				exit 1
			}
			ln -s "$src/$d/$h" "$out.new/$f/$d/$h"
		done
	done
done
rm -rf "$out"
mv "$out.new" "$out"
