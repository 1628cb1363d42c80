package io.lahar.streams.bench;

import java.time.Duration;
import java.util.List;

/**
 * The benchmark's raw loops in a JVM of their own ({@link RawLoops}, {@link BenchProcess}): they
 * copy the run's raw input topic to its output until the parent closes stdin.
 *
 * <pre>RawLoopsProcess BOOTSTRAP RUN tx|plain LOOPS PARTITIONS COMMIT_INTERVAL_MS TIMEOUT_S</pre>
 */
public final class RawLoopsProcess {

    private RawLoopsProcess() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7 || !List.of("tx", "plain").contains(args[2])) {
            System.err.println("usage: RawLoopsProcess BOOTSTRAP RUN tx|plain LOOPS PARTITIONS COMMIT_INTERVAL_MS TIMEOUT_S");
            System.exit(2);
        }
        LifecycleBenchmark.quietClientLogs();
        List<RawPipe> pipes = RawLoops.start(args[0], args[1], "tx".equals(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), new RawPipe.Cadence(Duration.ofMillis(Long.parseLong(args[5])), Duration.ofMillis(Long.parseLong(args[6]))),
                Duration.ofSeconds(Long.parseLong(args[7])));
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
    static List<String> args(String bootstrap, String run, boolean transactional, int loops, int partitions,
                             RawPipe.Cadence cadence, Duration timeout) {
        return List.of(bootstrap, run, RawLoops.mode(transactional), Integer.toString(loops), Integer.toString(partitions),
                Long.toString(cadence.commitInterval().toMillis()), Long.toString(cadence.poll().toMillis()),
                Long.toString(timeout.toSeconds()));
    }
}
