package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** kubectl against the embedded cluster, when it is installed: what a Volcano user types. */
public final class Kubectl {

    private static final Path KUBECTL = Path.of("/usr/bin/kubectl");

    private Kubectl() {}

    public static boolean installed() {
        return Files.isExecutable(KUBECTL);
    }

    /** Runs kubectl with {@code args}; fails the test unless it exits 0; its output. */
    public static String run(Path kubeconfig, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(KUBECTL.toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(String.join(" ", args) + ": " + output).isZero();
        return output;
    }
}
