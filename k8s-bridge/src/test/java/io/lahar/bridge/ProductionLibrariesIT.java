package io.lahar.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The bridge as it ships ({@code target/quarkus-app}, what {@code bin/start} and a container run)
 * holds no emulator: neither the kube-emulator's classes nor fabric8's mock server and mock web
 * server, which the bridge's tests use in their own JVM only.
 */
class ProductionLibrariesIT {

    private static final Path APP = Path.of("target", "quarkus-app");
    private static final List<String> FORBIDDEN_LIBRARIES =
            List.of("lahar-kube-emulator", "kubernetes-server-mock", "mockwebserver");
    private static final List<String> FORBIDDEN_PACKAGES =
            List.of("io/lahar/emulator/", "io/fabric8/kubernetes/client/server/mock/", "io/fabric8/mockwebserver/");

    @Test
    void thePackagedBridgeHasNoEmulatorAndNoMockServer() throws IOException {
        List<Path> jars = jars();
        // Not vacuous: the app is there, with the real Kubernetes client it talks to clusters with.
        assertThat(jars)
                .as("the jars of " + APP.toAbsolutePath())
                .anyMatch(jar -> jar.getFileName().toString().startsWith("io.fabric8.kubernetes-client-"))
                .anyMatch(jar -> jar.getFileName().toString().startsWith("lahar-k8s-bridge"));

        assertThat(jars)
                .as("libraries that only the tests may have")
                .noneMatch(jar ->
                        FORBIDDEN_LIBRARIES.stream().anyMatch(jar.getFileName().toString()::contains));
        List<String> classes = new ArrayList<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                file.stream()
                        .map(entry -> jar.getFileName() + "!" + entry.getName())
                        .filter(name -> FORBIDDEN_PACKAGES.stream().anyMatch(p -> name.contains("!" + p)))
                        .forEach(classes::add);
            }
        }
        assertThat(classes)
                .as("emulator or mock-server classes in the packaged bridge")
                .isEmpty();
    }

    private static List<Path> jars() throws IOException {
        assertThat(APP.resolve("quarkus-run.jar"))
                .as("the packaged bridge (mvn package)")
                .isRegularFile();
        try (Stream<Path> files = Files.walk(APP)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                    .toList();
        }
    }
}
