package io.lahar.core.job.plugins;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A plugin's arguments read exactly as Go's flag package reads them (a FlagSet with
 * ContinueOnError), for the plugins that declare every flag they take: {@code -name},
 * {@code --name}, {@code --name=value}, {@code --name value} for a flag that is not boolean; ints
 * in Go's syntax (ParseInt base 0), booleans as ParseBool takes them. Where Go stops with an error
 * (an unknown flag, a bad value, a missing value), the flags after it keep their defaults in
 * Volcano, so the error is kept here for admission to reject; so is an argument that is not a
 * flag, after which Go reads no flags.
 */
final class GoFlags {

    enum Type {
        STRING,
        INT,
        BOOL
    }

    private record Flag(Type type, String dflt) {}

    private final Map<String, Flag> declared = new LinkedHashMap<>();
    private final Map<String, String> values = new LinkedHashMap<>();
    private String error;

    GoFlags string(String name, String dflt) {
        declared.put(name, new Flag(Type.STRING, dflt));
        return this;
    }

    GoFlags integer(String name, int dflt) {
        declared.put(name, new Flag(Type.INT, Integer.toString(dflt)));
        return this;
    }

    GoFlags bool(String name, boolean dflt) {
        declared.put(name, new Flag(Type.BOOL, Boolean.toString(dflt)));
        return this;
    }

    /** Reads {@code args} (null: none) as flag.FlagSet.Parse does, stopping at the first error. */
    GoFlags parse(List<String> args) {
        if (args == null) {
            return this;
        }
        for (int i = 0; i < args.size(); i++) {
            String s = args.get(i) == null ? "" : args.get(i);
            if (s.length() < 2 || s.charAt(0) != '-') {
                return fail("argument \"" + s + "\" is not a flag, and no flag after it would be read");
            }
            int minuses = s.charAt(1) == '-' ? 2 : 1;
            if (minuses == 2 && s.length() == 2) {
                return i + 1 < args.size() ? fail("arguments after \"--\" are not flags and would not be read") : this;
            }
            String name = s.substring(minuses);
            if (name.isEmpty() || name.charAt(0) == '-' || name.charAt(0) == '=') {
                return fail("bad flag syntax: " + s);
            }
            String value = null;
            int eq = name.indexOf('=', 1);
            if (eq > 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            Flag flag = declared.get(name);
            if (flag == null) {
                return fail("flag provided but not defined: -" + name + " (known: "
                        + String.join(", ", declared.keySet()) + ")");
            }
            if (flag.type() == Type.BOOL) {
                String b = value == null ? "true" : parseBool(value);
                if (b == null) {
                    return fail("invalid boolean value \"" + value + "\" for -" + name + ": parse error");
                }
                values.put(name, b);
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    return fail("flag needs an argument: -" + name);
                }
                value = args.get(++i) == null ? "" : args.get(i);
            }
            if (flag.type() == Type.INT) {
                String problem = checkInt(value);
                if (problem != null) {
                    return fail("invalid value \"" + value + "\" for flag -" + name + ": " + problem);
                }
                value = parseInt(value).toString();
            }
            values.put(name, value);
        }
        return this;
    }

    /** Why Go would stop reading these arguments, if it would. */
    Optional<String> error() {
        return Optional.ofNullable(error);
    }

    /**
     * What admission must reject in these arguments, in a list the plugin may add to: why Go would
     * stop reading them, and each of the int flags {@code ports} that is not a port a container
     * can open (1 to 65535).
     */
    List<String> problems(String... ports) {
        List<String> out = new ArrayList<>();
        error().ifPresent(out::add);
        for (String n : ports) {
            int p = integer(n);
            if (p < 1 || p > 65535) {
                out.add("--" + n + ": " + p + " is not a port (1 to 65535)");
            }
        }
        return out;
    }

    String string(String name) {
        return values.getOrDefault(name, flag(name).dflt());
    }

    int integer(String name) {
        return Integer.parseInt(values.getOrDefault(name, flag(name).dflt()));
    }

    boolean bool(String name) {
        return Boolean.parseBoolean(values.getOrDefault(name, flag(name).dflt()));
    }

    private Flag flag(String name) {
        Flag f = declared.get(name);
        if (f == null) {
            throw new IllegalArgumentException("flag " + name + " is not declared");
        }
        return f;
    }

    private GoFlags fail(String why) {
        error = why;
        return this;
    }

    /** strconv.ParseBool: "true" or "false", or null when Go refuses the text. */
    private static String parseBool(String s) {
        return io.lahar.core.api.GoBool.parse(s).map(String::valueOf).orElse(null);
    }

    /**
     * What strconv.ParseInt(s, 0, 64) reports ("parse error", "value out of range"), or null. Go's
     * ints are 64 bits; a value beyond 32 bits is out of range here too, as no plugin's number
     * (a port, a timeout in seconds) means anything there.
     */
    private static String checkInt(String s) {
        BigInteger v = parseInt(s);
        if (v == null) {
            return "parse error";
        }
        return v.bitLength() > 31 ? "value out of range" : null;
    }

    /** Go's integer literal syntax: a sign, then 0x/0o/0b or a leading 0 (octal), underscores between digits. */
    private static BigInteger parseInt(String s) {
        String body = s;
        boolean negative = false;
        if (!body.isEmpty() && (body.charAt(0) == '+' || body.charAt(0) == '-')) {
            negative = body.charAt(0) == '-';
            body = body.substring(1);
        }
        int radix = 10;
        boolean prefixed = false;
        if (body.length() >= 2 && body.charAt(0) == '0') {
            char p = Character.toLowerCase(body.charAt(1));
            if (p == 'x' || p == 'o' || p == 'b') {
                radix = p == 'x' ? 16 : p == 'o' ? 8 : 2;
                body = body.substring(2);
                prefixed = true;
            } else {
                radix = 8;
                body = body.substring(1);
                prefixed = true;
            }
        }
        if (!underscoresBetweenDigits(body, prefixed)) {
            return null;
        }
        body = body.replace("_", "");
        if (body.isEmpty()) {
            return null;
        }
        try {
            BigInteger v = new BigInteger(body, radix);
            return negative ? v.negate() : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean underscoresBetweenDigits(String body, boolean prefixed) {
        for (int i = 0; i < body.length(); i++) {
            if (body.charAt(i) != '_') {
                continue;
            }
            boolean afterDigit = i > 0 ? body.charAt(i - 1) != '_' : prefixed;
            boolean beforeDigit = i + 1 < body.length() && body.charAt(i + 1) != '_';
            if (!afterDigit || !beforeDigit) {
                return false;
            }
        }
        return true;
    }
}
