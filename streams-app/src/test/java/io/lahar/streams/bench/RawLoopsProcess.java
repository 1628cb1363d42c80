package io.lahar.streams.bench;

import java.time.Duration;
import java.util.List;

/**
 * The benchmark's raw loops in a JVM of their own ({@link RawLoops}, {@link BenchProcess}): they
 * copy the run's raw input topic to its output until the parent closes stdin.
 *
 * <pre>RawLoopsProcess BOOTSTRAP RUN tx|plain LOOPS PARTITIONS COMMIT_INTERVAL_MS POLL_MS TIMEOUT_S</pre>
 */
public final class RawLoopsProcess {

    static final String USAGE =
            "usage: RawLoopsProcess BOOTSTRAP RUN tx|plain LOOPS PARTITIONS COMMIT_INTERVAL_MS POLL_MS TIMEOUT_S";

    private RawLoopsProcess() {}

    /** What the loops are started with; {@link #args} writes it, {@link #parse} reads it back. */
    record Settings(
            String bootstrap,
            String run,
            boolean transactional,
            int loops,
            int partitions,
            RawPipe.Cadence cadence,
            Duration timeout) {}

    public static void main(String[] args) throws Exception {
        Settings settings;
        try {
            settings = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(USAGE + " (" + e.getMessage() + ")");
            System.exit(2);
            return;
        }
        LifecycleBenchmark.quietClientLogs();
        List<RawPipe> pipes = RawLoops.start(
                settings.bootstrap(),
                settings.run(),
                settings.transactional(),
                settings.loops(),
                settings.partitions(),
                settings.cadence(),
                settings.timeout());
        // A loop that fails stops copying: say why, and end, so the parent's round reports the exit.
        Thread.ofPlatform().daemon().name("raw loops watch").start(() -> {
            while (true) {
                Throwable failure = RawLoops.failure(pipes);
                if (failure != null) {
                    System.err.println("raw loops process: a loop failed: " + failure);
                    failure.printStackTrace();
                    System.exit(1);
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        System.out.println(BenchProcess.READY);
        System.out.flush();
        BenchProcess.awaitParent();
        RawLoops.close(pipes);
        System.exit(0);
    }

    /** The arguments {@link #main} takes. */
    static List<String> args(Settings s) {
        return List.of(
                s.bootstrap(),
                s.run(),
                RawLoops.mode(s.transactional()),
                Integer.toString(s.loops()),
                Integer.toString(s.partitions()),
                Long.toString(s.cadence().commitInterval().toMillis()),
                Long.toString(s.cadence().poll().toMillis()),
                Long.toString(s.timeout().toSeconds()));
    }

    /**
     * {@link #main}'s arguments read back.
     *
     * @throws IllegalArgumentException saying what is wrong with them
     */
    static Settings parse(String[] args) {
        if (args.length != 8) {
            throw new IllegalArgumentException("8 arguments expected, " + args.length + " given");
        }
        // The mode as args() wrote it: RawLoops.mode's two names, read back here and nowhere else.
        boolean transactional = RawLoops.mode(true).equals(args[2]);
        if (!transactional && !RawLoops.mode(false).equals(args[2])) {
            throw new IllegalArgumentException(
                    RawLoops.mode(true) + " or " + RawLoops.mode(false) + " expected, not " + args[2]);
        }
        try {
            return new Settings(
                    args[0],
                    args[1],
                    transactional,
                    Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]),
                    new RawPipe.Cadence(
                            Duration.ofMillis(Long.parseLong(args[5])), Duration.ofMillis(Long.parseLong(args[6]))),
                    Duration.ofSeconds(Long.parseLong(args[7])));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a number expected: " + e.getMessage());
        }
    }
}
