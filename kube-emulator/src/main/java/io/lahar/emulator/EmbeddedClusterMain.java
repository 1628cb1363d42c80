package io.lahar.emulator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The kube-emulator as a process, in the foreground until SIGTERM/SIGINT: {@code java -jar
 * kube-emulator/target/kube-emulator.jar --port 6443 --nodes '4x{cpu=8,memory=32Gi,gpu=0}' --kubeconfig
 * kubeconfig.yaml}. The kubeconfig file appears, and {@code /readyz} answers 200, once the API
 * answers and the nodes are registered, so a script can wait for either; the process also prints
 * one {@code ready:} line on stdout.
 */
public final class EmbeddedClusterMain {

    static final String USAGE = """
            usage: java -jar kube-emulator.jar [--port P] [--nodes SPEC] [--kubeconfig FILE] [--time-scale X] [--data DIR]
              --port P          port on 127.0.0.1 (default 0: any free port, printed on start)
              --nodes SPEC      simulated nodes, e.g. '4x{cpu=8,memory=32Gi,gpu=0}' or
                                '3x{cpu=8,memory=32Gi}+1x{name=gpu,cpu=16,memory=64Gi,gpu=4,taint=nvidia.com/gpu=present:NoSchedule}'
                                (default 3x{cpu=8,memory=32Gi,gpu=0})
              --kubeconfig FILE where to write the kubeconfig (default ./kubeconfig.embedded.yaml)
              --time-scale X    multiply simulated pod durations by X (default 1; 0.1 runs ten times faster)
              --data DIR        keep the API's objects in DIR: started again on DIR, the emulator has
                                every object it had, killed or stopped (default: in memory only);
                                --nodes registers nodes in an empty DIR only
            This is an EMULATED Kubernetes API (fabric8 mock server + simulated kubelet), not a real cluster.
            """;

    /** The parsed command line. */
    record Arguments(EmbeddedCluster.Options options, boolean help) {}

    private EmbeddedClusterMain() {}

    public static void main(String[] args) throws InterruptedException {
        configureLogging();
        Arguments parsed;
        try {
            parsed = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        if (parsed.help()) {
            System.out.print(USAGE);
            return;
        }
        EmbeddedCluster cluster;
        try {
            cluster = EmbeddedCluster.start(parsed.options());
        } catch (RuntimeException e) {
            System.err.println("error: the kube-emulator did not start: " + e.getMessage()
                    + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""));
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            cluster.close();
                            stopped.countDown();
                        },
                        "lahar-kube-emulator-shutdown"));
        System.out.println("ready: emulated Kubernetes API at " + cluster.url()
                + " with " + cluster.nodes().list().size() + " simulated nodes; kubeconfig "
                + cluster.kubeconfig().map(Path::toString).orElse("(none)")
                + "; try: kubectl --kubeconfig "
                + cluster.kubeconfig().map(Path::toString).orElse("FILE")
                + " get nodes");
        System.out.flush();
        stopped.await();
    }

    /**
     * One line per record, the kubelet's (JUL) like fabric8's and Vert.x's (SLF4J, simple binding):
     * set before the first logger is made; a -D on the command line wins.
     */
    private static void configureLogging() {
        System.getProperties()
                .putIfAbsent("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT,%1$tL %4$s [%3$s] %5$s%6$s%n");
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd HH:mm:ss,SSS");
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.levelInBrackets", "false");
        // Every start creates Volcano's default queue (scheduling.volcano.sh/v1beta1): not news.
        System.getProperties()
                .putIfAbsent(
                        "org.slf4j.simpleLogger.log.io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils",
                        "error");
    }

    /** Parses the command line; every problem is reported at once. */
    static Arguments parse(String[] args) {
        EmbeddedCluster.Options options =
                EmbeddedCluster.Options.defaults().withKubeconfig(Path.of("kubeconfig.embedded.yaml"));
        List<String> problems = new ArrayList<>();
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (name.equals("--help") || name.equals("-h")) {
                help = true;
                continue;
            }
            if (!List.of("--port", "--nodes", "--kubeconfig", "--time-scale", "--data")
                    .contains(name)) {
                problems.add(arg + ": unknown option");
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    problems.add(name + ": missing value");
                    continue;
                }
                value = args[++i];
            }
            try {
                options = switch (name) {
                    case "--port" -> options.withPort(parsePort(value));
                    case "--nodes" -> options.withNodes(NodeSpec.parse(value));
                    case "--kubeconfig" -> options.withKubeconfig(Path.of(value));
                    case "--data" -> options.withDataDir(Path.of(value));
                    default -> options.withTimeScale(parseTimeScale(value));
                };
            } catch (InvalidNodeSpecException e) {
                e.reasons().forEach(reason -> problems.add("--nodes: " + reason));
            } catch (IllegalArgumentException e) {
                problems.add(name + ": " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new Arguments(options, help);
    }

    private static int parsePort(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("\"" + value + "\" is not a port (0..65535)");
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + value + "\" is not a port (0..65535)");
        }
    }

    private static double parseTimeScale(String value) {
        try {
            double scale = Double.parseDouble(value);
            if (!(scale >= 0) || Double.isInfinite(scale)) {
                throw new IllegalArgumentException("\"" + value + "\" is not a finite number >= 0");
            }
            return scale;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + value + "\" is not a number");
        }
    }
}
