package io.lahar.core.api;

import java.util.List;

/** A task's start dependency: the tasks it waits for, and whether {@code any} or {@code all}. */
public record TaskDependsOn(List<String> name, String iteration) {

    public List<String> namesOrEmpty() {
        return name == null ? List.of() : name;
    }
}
