package io.lahar.scheduler.mapping;

import io.lahar.core.scheduling.api.Problem;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An input record the scheduler cannot use, with every reason named by its field path. The loop
 * sends the record to the dead-letter topic and goes on.
 */
public final class MappingException extends RuntimeException {
    private final transient List<Problem> problems;

    public MappingException(List<Problem> problems) {
        super(problems.stream().map(p -> p.path() + ": " + p.message()).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }

    static void throwIfAny(List<Problem> problems) {
        if (!problems.isEmpty()) throw new MappingException(problems);
    }
}
