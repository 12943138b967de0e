#!/usr/bin/env bash
# Build ARX 3.9.2 (https://github.com/arx-deidentifier/arx) from its public source,
# outside this repository, for benchmarks/bench_arx.py; then compile the driver
# benchmarks/arx/ArxAdult.java (and ArxUniques.java, ARX's population-uniques estimates of a
# class-size histogram; ArxPitman.java, its Pitman solver step by step) against it.
#
#   benchmarks/arx/build_arx.sh [TARGET]     # TARGET defaults to /work/arx
#
# Idempotent: each step is skipped when its output is already there.
# Needs: git, a JDK (javac >= 8; Debian: apt-get install -y openjdk-17-jdk-headless)
# and Debian's libpdfbox2-java (apt-get install -y libpdfbox2-java), which stands in
# for ARX's lib/ant/pdfbox/pdfbox-app-2.0.1.jar.
#
# Source of ARX: a git directory given by ARX_GIT_DIR (default: the local mirror
# /work/.mirror/arx-deidentifier+arx/repo); when that does not exist it is cloned
# (bare, the tag only) from GitHub into TARGET/arx.git (untested here: no route to
# GitHub from this machine). Files whose blobs are absent from a partial mirror
# (three large jars: hadoop-core, pdfbox-app, poi-ooxml-schemas) are skipped: hadoop-core is replaced by a one-interface stub of
# org.apache.hadoop.io.Writable (the only hadoop type javac needs, as a supertype of
# mahout classes), pdfbox by Debian's jars; poi-ooxml-schemas is not needed to
# compile ARX's sources.
#
# Result:
#   TARGET/src        ARX's tree at tag v3.9.2 (src/main, lib, data)
#   TARGET/classes    ARX compiled (javac -source 8 -target 8) with its resources
#   TARGET/driver     ArxAdult.class, ArxUniques.class, ArxPitman.class
#   TARGET/classpath  the classpath to run the driver with (one line)
set -euo pipefail

TARGET=$(realpath -m "${1:-/work/arx}")
TAG=v3.9.2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GIT_DIR_ARX=${ARX_GIT_DIR:-/work/.mirror/arx-deidentifier+arx/repo}
PDFBOX_JARS="/usr/share/java/pdfbox2.jar:/usr/share/java/fontbox2.jar:/usr/share/java/commons-logging.jar"

mkdir -p "$TARGET"

# 0. Tools.
for tool in git javac java; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y openjdk-17-jdk-headless git)" >&2; exit 1; }
done
[ -f /usr/share/java/pdfbox2.jar ] || { echo "missing /usr/share/java/pdfbox2.jar (apt-get install -y libpdfbox2-java)" >&2; exit 1; }

# 1. ARX's source at the tag.
if [ ! -d "$GIT_DIR_ARX" ]; then
    GIT_DIR_ARX="$TARGET/arx.git"
    [ -d "$GIT_DIR_ARX" ] || git clone --bare --depth 1 --branch "$TAG" https://github.com/arx-deidentifier/arx.git "$GIT_DIR_ARX"
fi
if [ ! -f "$TARGET/src/.complete" ]; then
    rm -rf "$TARGET/src"
    mkdir -p "$TARGET/src"
    # Only the files whose blobs are present (a partial mirror lacks a few large jars).
    git --git-dir="$GIT_DIR_ARX" ls-tree -r --format='%(objectname) %(path)' "$TAG" -- src/main lib data \
        | git --git-dir="$GIT_DIR_ARX" cat-file --batch-check='%(objectname) %(objecttype) %(rest)' 2>/dev/null \
        | awk '$2 == "blob" {print $3}' > "$TARGET/src.files" || true
    if [ ! -s "$TARGET/src.files" ]; then  # older git: no --format for ls-tree
        git --git-dir="$GIT_DIR_ARX" ls-tree -r "$TAG" -- src/main lib data \
            | while read -r _mode _type obj path; do
                  git --git-dir="$GIT_DIR_ARX" cat-file -e "$obj" 2>/dev/null && echo "$path"
              done > "$TARGET/src.files"
    fi
    tr '\n' '\0' < "$TARGET/src.files" \
        | xargs -0 git --git-dir="$GIT_DIR_ARX" archive --format=tar "$TAG" -- 2> "$TARGET/archive.log" \
        | tar -x -C "$TARGET/src"
    # (git archive names the absent blobs of the tree in archive.log and still exits 0)
    [ -f "$TARGET/src/src/main/org/deidentifier/arx/ARXAnonymizer.java" ] \
        || { cat "$TARGET/archive.log" >&2; echo "ARX's source did not unpack" >&2; exit 1; }
    touch "$TARGET/src/.complete"
fi

# 2. The hadoop stub: org.apache.hadoop.io.Writable, one interface.
STUB="$TARGET/hadoop-stub"
if [ ! -f "$STUB/classes/org/apache/hadoop/io/Writable.class" ]; then
    mkdir -p "$STUB/src/org/apache/hadoop/io" "$STUB/classes"
    cat > "$STUB/src/org/apache/hadoop/io/Writable.java" <<'JAVA'
package org.apache.hadoop.io;

/** Stub of Hadoop's Writable: the only Hadoop type needed to compile ARX against mahout. */
public interface Writable {
    void write(java.io.DataOutput out) throws java.io.IOException;

    void readFields(java.io.DataInput in) throws java.io.IOException;
}
JAVA
    javac -nowarn -source 8 -target 8 -d "$STUB/classes" "$STUB/src/org/apache/hadoop/io/Writable.java" 2>&1 \
        | grep -v -E '^warning: \[options\]|^1 warning$' || true
fi

# 3. The classpath: ARX's lib/ jars, the stub, Debian's pdfbox.
LIBS=$(find "$TARGET/src/lib" -name '*.jar' ! -name '*swt.cocoa*' ! -name '*swt.win32*' | sort | tr '\n' ':')
CP="$LIBS$STUB/classes:$PDFBOX_JARS"

# 4. Compile ARX's src/main and copy its resources next to the classes.
if [ ! -f "$TARGET/classes/.complete" ]; then
    rm -rf "$TARGET/classes"
    mkdir -p "$TARGET/classes"
    find "$TARGET/src/src/main" -name '*.java' > "$TARGET/sources.txt"
    echo "compiling $(wc -l < "$TARGET/sources.txt") ARX sources (a few minutes) ..."
    javac -nowarn -encoding UTF-8 -source 8 -target 8 -proc:none -J-Xmx2g \
        -cp "$CP" -d "$TARGET/classes" @"$TARGET/sources.txt" 2> "$TARGET/javac.log" \
        || { tail -40 "$TARGET/javac.log" >&2; echo "javac failed; full log: $TARGET/javac.log" >&2; exit 1; }
    (cd "$TARGET/src/src/main" && find . -type f ! -name '*.java' -exec cp --parents {} "$TARGET/classes/" \;)
    touch "$TARGET/classes/.complete"
fi

# 5. The driver (always recompiled: it is small and may have changed).
mkdir -p "$TARGET/driver"
javac -nowarn -encoding UTF-8 -source 8 -target 8 -cp "$TARGET/classes:$CP" \
    -d "$TARGET/driver" "$HERE/ArxAdult.java" "$HERE/ArxUniques.java" \
    "$HERE/ArxPitman.java" 2>&1 | grep -v -E '^warning: \[options\]|^1 warning$' || true
[ -f "$TARGET/driver/ArxAdult.class" ] || { echo "driver did not compile" >&2; exit 1; }
echo "$TARGET/driver:$TARGET/classes:$CP" > "$TARGET/classpath"
echo "ARX $TAG built in $TARGET; run: java -cp \"\$(cat $TARGET/classpath)\" ArxAdult $TARGET/src/data"
