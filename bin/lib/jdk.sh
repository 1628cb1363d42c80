# shellcheck shell=bash
# Finds a JDK >= 21 and exports JAVA_HOME and JAVA. Source it: . "$ROOT/bin/lib/jdk.sh"
# Order: $JAVA_HOME if it is >= 21, else /usr/lib/jvm/temurin-25-jdk-amd64, else a clear error.

lahar_java_major() {
  # Prints the major version of the java binary $1 (e.g. 21, 25), or nothing.
  local v
  v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1)
  case "$v" in
    1.*) echo "${v#1.}" ;;
    *) echo "$v" ;;
  esac
}

lahar_find_jdk() {
  local candidate major
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    major=$(lahar_java_major "$candidate/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
      export JAVA_HOME="$candidate"
      export JAVA="$candidate/bin/java"
      return 0
    fi
  done
  echo "lahar: needs a JDK 21 or newer: set JAVA_HOME to one (JAVA_HOME=${JAVA_HOME:-<unset>}," \
       "and /usr/lib/jvm/temurin-25-jdk-amd64 was not found)" >&2
  return 1
}

lahar_find_jdk || exit 1
