package io.lahar.core.sim;

import io.lahar.core.api.Action;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.PodPhase;
import java.time.Duration;
import java.util.List;

/** One line of a {@code lahar simulate} script: something that happens to the job or its world. */
public sealed interface ScriptStep {

    /** The line of the script it came from (1-based), for error messages. */
    int line();

    /**
     * A pod of the current run changes: a new {@code phase} (with the container's
     * {@code exitCode}), containers restarted ({@code restartCount}, phase kept), or the pod was
     * deleted by someone else ({@code evicted}).
     */
    record PodStep(
            int line, String task, int index, PodPhase phase, Integer exitCode, Integer restartCount, boolean evicted)
            implements ScriptStep {}

    /** A user command (any action name); {@code task} or {@code pod} name its target. */
    record CommandStep(int line, Action action, String task, String pod) implements ScriptStep {}

    /** Time passes. */
    record AdvanceStep(int line, Duration duration) implements ScriptStep {}

    /** A scale update of the job, admitted like one. */
    record UpdateStep(int line, Integer minAvailable, String priorityClassName, List<TaskScale> tasks)
            implements ScriptStep {

        /** One task's new numbers; null means unchanged. */
        public record TaskScale(String name, Integer replicas, Integer minAvailable) {}
    }

    /** The scheduler moves the pod group (for {@code --manual}: Inqueue admits it). */
    record PodGroupStep(int line, PodGroupPhase phase) implements ScriptStep {}

    /** {@code --manual}: the deletions asked for complete, a re-created pod group is admitted. */
    record SettleStep(int line) implements ScriptStep {}
}
