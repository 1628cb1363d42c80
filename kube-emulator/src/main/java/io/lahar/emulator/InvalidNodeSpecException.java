package io.lahar.emulator;

import java.util.List;

/** A node specification that cannot be used, with every reason, each naming its place. */
public final class InvalidNodeSpecException extends IllegalArgumentException {

    private final List<String> reasons;

    public InvalidNodeSpecException(List<String> reasons) {
        super("invalid node specification: " + String.join("; ", reasons));
        this.reasons = List.copyOf(reasons);
    }

    public List<String> reasons() {
        return reasons;
    }
}
