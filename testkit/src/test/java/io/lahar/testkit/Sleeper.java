package io.lahar.testkit;

/**
 * A child process for process-handling tests: sleeps until killed. With {@code stubborn} its
 * shutdown hook never finishes, as a hung service would, so only SIGKILL ends it.
 */
public final class Sleeper {

    private Sleeper() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("stubborn")) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        System.out.println("sleeper up");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
