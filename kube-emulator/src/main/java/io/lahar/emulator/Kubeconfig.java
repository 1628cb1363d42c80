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
 * {@code quarkus.kubernetes-client.*}): HTTPS on 127.0.0.1 and the emulator's bearer token, which
 * every request but the health checks must carry (kubectl sends a token over TLS only); the file
 * is the owner's only (mode 0600). The emulator's certificate is self-signed and made anew at each
 * start, so the kubeconfig does not verify it: the token is what keeps other local users out, and
 * nothing but the emulator can hold its loopback port while it runs.
 */
public final class Kubeconfig {

    public static final String CONTEXT = "lahar-embedded";

    private Kubeconfig() {}

    public static String render(String serverUrl, String namespace, String token) {
        return """
                # Written by Lahar's kube-emulator: an EMULATED Kubernetes API (fabric8 mock server), not a real cluster.
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                    insecure-skip-tls-verify: true
                users:
                - name: %1$s
                  user:
                    token: %4$s
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: %1$s
                    namespace: %3$s
                current-context: %1$s
                preferences: {}
                """.formatted(CONTEXT, serverUrl, namespace, token);
    }

    /** Writes the file atomically (readers never see half of it), readable by the owner only. */
    public static Path write(Path file, String serverUrl, String namespace, String token) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path dir = absolute.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = Files.createTempFile(dir, ".kubeconfig-", ".tmp");
        try {
            Files.writeString(tmp, render(serverUrl, namespace, token), StandardCharsets.UTF_8);
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
