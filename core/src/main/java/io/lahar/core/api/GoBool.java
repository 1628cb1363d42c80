package io.lahar.core.api;

import java.util.Optional;

/** Go's strconv.ParseBool, as Volcano reads its boolean annotations and flags. */
public final class GoBool {
    private GoBool() {}

    /** The value, or empty when Go refuses the text. */
    public static Optional<Boolean> parse(String s) {
        if (s == null) return Optional.empty();
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> Optional.of(true);
            case "0", "f", "F", "FALSE", "false", "False" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
