package io.lahar.core.job.plugins;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plugin's arguments read as Go's flag package reads them, since Volcano's plugins parse theirs
 * with it: {@code -name}, {@code --name}, {@code --name=value}, and {@code --name value} for a
 * flag that is not boolean. Unknown flags are ignored, as Volcano logs and goes on.
 */
final class PluginArgs {

    private final Map<String, String> values = new HashMap<>();

    PluginArgs(List<String> args, Set<String> booleanFlags) {
        if (args == null) {
            return;
        }
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a == null || !a.startsWith("-") || a.equals("-") || a.equals("--")) {
                continue;
            }
            String body = a.startsWith("--") ? a.substring(2) : a.substring(1);
            int eq = body.indexOf('=');
            if (eq >= 0) {
                values.put(body.substring(0, eq), body.substring(eq + 1));
            } else if (booleanFlags.contains(body)) {
                values.put(body, "true");
            } else if (i + 1 < args.size()) {
                values.put(body, args.get(++i));
            }
        }
    }

    String string(String name, String dflt) {
        String v = values.get(name);
        return v == null || v.isEmpty() ? dflt : v;
    }

    boolean bool(String name) {
        String v = values.get(name);
        return v != null && (v.equals("true") || v.equals("1") || v.equalsIgnoreCase("t"));
    }

    int integer(String name, int dflt) {
        String v = values.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}
