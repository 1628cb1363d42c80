package io.lahar.emulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A kubeconfig for the emulator, usable by kubectl ({@code --kubeconfig} or {@code KUBECONFIG}) and
 * by fabric8 ({@code kubeconfig} system property / env, or Quarkus'
 * {@code quarkus.kubernetes-client.*}). Plain HTTP on 127.0.0.1 and a token the emulator ignores:
 * it has no authentication, which is one reason it must never listen beyond loopback.
 */
public final class Kubeconfig {

    public static final String CONTEXT = "lahar-embedded";

    private Kubeconfig() {
    }

    public static String render(String serverUrl, String namespace) {
        return """
                # Written by Lahar's kube-emulator: an EMULATED Kubernetes API (fabric8 mock server), not a real cluster.
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                users:
                - name: %1$s
                  user:
                    token: lahar-embedded-no-auth
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: %1$s
                    namespace: %3$s
                current-context: %1$s
                preferences: {}
                """.formatted(CONTEXT, serverUrl, namespace);
    }

    /** Writes the file atomically (readers never see half of it), readable by the owner only. */
    public static Path write(Path file, String serverUrl, String namespace) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path dir = absolute.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = Files.createTempFile(dir, ".kubeconfig-", ".tmp");
        try {
            Files.writeString(tmp, render(serverUrl, namespace), StandardCharsets.UTF_8);
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // Windows: the default ACLs apply.
            }
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return absolute;
    }
}
