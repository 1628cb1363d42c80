package io.lahar.testkit;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

/**
 * Entry point of every child JVM the testkit starts: {@code ParentWatchdog <parentPid> <mainClass>
 * <args...>}. It runs the real main class, and exits this JVM (running its shutdown hooks, so
 * Kafka and Quarkus stop cleanly) as soon as the parent process is gone. A shutdown hook in the
 * parent covers SIGTERM and SIGINT; this covers SIGKILL, after which no hook of the parent runs.
 *
 * <p>Depends on the JDK only: it is loaded from the testkit's classes next to the child's own jars.
 */
public final class ParentWatchdog {

    /** Exit status when the parent vanished (128 + SIGHUP, the convention for a lost session). */
    static final int PARENT_GONE_EXIT = 129;

    private ParentWatchdog() {}

    public static void main(String[] args) throws Throwable {
        if (args.length < 2) {
            System.err.println("usage: ParentWatchdog <parentPid> <mainClass> [args...]");
            System.exit(2);
        }
        long parentPid = Long.parseLong(args[0]);
        Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
        if (parent.isEmpty() || !parent.get().isAlive()) {
            System.err.println("lahar-testkit: parent process " + parentPid + " is gone; not starting");
            System.exit(PARENT_GONE_EXIT);
        }
        Thread watcher = new Thread(
                () -> {
                    // onExit() of a non-child process is implemented by polling; the join is all we need.
                    parent.get().onExit().join();
                    System.err.println("lahar-testkit: parent process " + parentPid + " exited; stopping");
                    System.exit(PARENT_GONE_EXIT);
                },
                "lahar-parent-watchdog");
        watcher.setDaemon(true);
        watcher.start();

        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
