package io.lahar.core.api;

import java.util.List;

/**
 * Lahar extension: run the flow only when its targets ended in one of these job phases
 * (e.g. [Completed], or [Failed] for a compensation branch). Absent means Completed, as in Volcano.
 */
public record FlowWhen(List<String> phases) {}
