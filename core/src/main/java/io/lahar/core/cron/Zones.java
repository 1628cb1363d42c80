package io.lahar.core.cron;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * Time zones by IANA name, as Go's {@code time.LoadLocation} finds them, from the JVM's zone
 * database: {@code ""} and {@code "UTC"} are UTC; any other name must be a region of the
 * database ({@code America/New_York}, {@code Etc/GMT+5}), never an offset such as {@code +01:00}.
 * Go's {@code "Local"} (the process's zone) is UTC here: the core reads no environment.
 */
public final class Zones {

    private Zones() {}

    public static Optional<ZoneId> load(String name) {
        if (name == null) {
            return Optional.empty();
        }
        if (name.isEmpty() || name.equals("UTC") || name.equals("Local")) {
            return Optional.of(ZoneOffset.UTC);
        }
        if (!ZoneId.getAvailableZoneIds().contains(name)) {
            return Optional.empty();
        }
        return Optional.of(ZoneId.of(name));
    }
}
