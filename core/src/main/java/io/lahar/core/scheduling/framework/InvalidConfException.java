package io.lahar.core.scheduling.framework;

import io.lahar.core.scheduling.api.Problem;
import java.util.List;
import java.util.stream.Collectors;

/** A scheduler-conf that cannot be used; lists every problem with its path. */
public final class InvalidConfException extends IllegalArgumentException {
    private final List<Problem> problems;

    public InvalidConfException(List<Problem> problems) {
        super("invalid scheduler configuration: "
                + problems.stream().map(Problem::toString).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
