package io.lahar.core.scheduling.api;

import java.util.List;

/** A container image present on a node ({@code status.images}): its names and size. */
public record NodeImage(List<String> names, long sizeBytes) {
    public NodeImage {
        names = names == null ? List.of() : List.copyOf(names);
    }
}
