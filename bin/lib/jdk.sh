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

# JVM options for every Lahar process and for Maven's own JVM: the libraries (Netty, RocksDB,
# Guava inside Maven, ...) use sun.misc.Unsafe and native access, of which JDK 23 and newer warn on
# every start; these say it is intended, so a normal start or CLI call prints only what Lahar says.
LAHAR_JVM_OPTS=(--enable-native-access=ALL-UNNAMED)
if [ "$(lahar_java_major "$JAVA")" -ge 23 ] 2>/dev/null; then
  LAHAR_JVM_OPTS+=(--sun-misc-unsafe-memory-access=allow)
fi
case " ${MAVEN_OPTS:-} " in
  *" ${LAHAR_JVM_OPTS[0]} "*) ;;
  *) export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }${LAHAR_JVM_OPTS[*]}" ;;
esac
