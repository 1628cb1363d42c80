package io.lahar.cli;

import io.lahar.schema.JobTransition;
import io.lahar.schema.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar watch}: prints every job phase change from the transitions topic as it happens,
 * with its reason, and optionally waits until given jobs have finished.
 */
@Command(name = "watch", description = "Print job phase changes from lahar.job-transitions as they happen.")
public final class WatchCommand extends Verb {

    /** The final phases: a job never leaves them. Aborted is not one: the job can still be resumed. */
    static final Set<String> FINISHED = Set.of("Completed", "Failed", "Terminated");

    @picocli.CommandLine.Mixin
    KafkaOptions kafka;

    @Option(names = "--from-beginning", description = "Replay the whole topic first instead of starting at its end.")
    boolean fromBeginning;

    @Option(
            names = "--until-finished",
            split = ",",
            paramLabel = "NS/NAME",
            description = "Exit 0 once these jobs are in a final phase: Completed, Failed or Terminated.")
    List<String> untilFinished = List.of();

    @Option(
            names = "--timeout",
            defaultValue = "0",
            description = "Give up after this many seconds (0: never); exit 1.")
    int timeoutSeconds;

    @Override
    public Integer call() {
        PrintWriter out = out();
        Map<String, String> phases = new LinkedHashMap<>();
        untilFinished.forEach(job -> phases.put(job, "?"));
        long deadline = timeoutSeconds <= 0
                ? Long.MAX_VALUE
                : System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        KafkaOptions.Resolved where = kafka.resolve(spec);
        try (KafkaConsumer<String, JobTransition> consumer = CommittedRecords.follow(
                where,
                Topics.JOB_TRANSITIONS,
                where.serdes().value(JobTransition.class).deserializer())) {
            if (fromBeginning) {
                consumer.seekToBeginning(consumer.assignment());
            } else {
                consumer.seekToEnd(consumer.assignment());
            }
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, JobTransition> record : consumer.poll(Duration.ofMillis(250))) {
                    JobTransition t = record.value();
                    if (t == null) {
                        continue;
                    }
                    String job = t.getNamespace() + "/" + t.getName();
                    out.printf(
                            "%s  %-28s %-11s -> %-11s %s%n",
                            t.getTime(),
                            job,
                            t.getFrom() == null ? "(new)" : t.getFrom(),
                            t.getTo(),
                            t.getMessage() == null ? (t.getReason() == null ? "" : t.getReason()) : t.getMessage());
                    out.flush();
                    if (phases.containsKey(job)) {
                        phases.put(job, t.getTo());
                    }
                }
                if (!phases.isEmpty() && phases.values().stream().allMatch(FINISHED::contains)) {
                    return 0;
                }
            }
        }
        err().println("error: not finished within " + timeoutSeconds + "s: " + phases);
        return Lahar.EXIT_REJECTED;
    }
}
