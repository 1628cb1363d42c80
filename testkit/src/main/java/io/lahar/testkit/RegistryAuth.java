package io.lahar.testkit;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Properties;

/**
 * The one user of a secured registry: made once (a random password), kept in
 * {@code <dir>/registry-credentials.properties} (mode 0600, {@code username=} and {@code password=},
 * the form Lahar's clients read), and given to the registry as Quarkus' embedded user in its own
 * config file (also 0600). The digest form of that config was refused by the registry's build.
 */
public record RegistryAuth(String username, String password, Path file) {

    public static final String FILE = "registry-credentials.properties";
    static final String USER = "lahar";
    /** Apicurio's role with every right. */
    static final String ROLE = "sr-admin";

    /** The credentials of the registry whose data is in {@code dir}: read back, or made now. */
    static RegistryAuth of(Path dir) {
        Path file = dir.resolve(FILE);
        try {
            // The broker, started beside the registry, may not have made the directory yet.
            Files.createDirectories(dir);
            if (!Files.exists(file)) {
                Properties p = new Properties();
                p.setProperty("username", USER);
                p.setProperty("password", PrivateFiles.secret());
                PrivateFiles.write(
                        file, p, "Credentials of the schema registry (lahar-testkit); every client needs them.");
            }
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            }
            return new RegistryAuth(p.getProperty("username"), p.getProperty("password"), file);
        } catch (IOException e) {
            throw new InfraException("cannot prepare the registry's credentials in " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code Authorization: Basic ...}. */
    public String basicHeader() {
        return "Basic "
                + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The registry's runtime config: basic authentication for every API call, or nothing (an open registry). */
    static void writeServerConfig(Path file, RegistryAuth auth) throws IOException {
        Files.createDirectories(file.getParent());
        Properties p = new Properties();
        if (auth != null) {
            // The registry logs that basic is "build time fixed to null", and honours it all the same.
            p.setProperty("quarkus.http.auth.basic", "true");
            p.setProperty("quarkus.security.users.embedded.enabled", "true");
            p.setProperty("quarkus.security.users.embedded.plain-text", "true");
            p.setProperty("quarkus.security.users.embedded.users." + auth.username(), auth.password());
            p.setProperty("quarkus.security.users.embedded.roles." + auth.username(), ROLE);
            p.setProperty("quarkus.http.auth.permission.api.paths", "/apis/*");
            p.setProperty("quarkus.http.auth.permission.api.policy", "authenticated");
        }
        PrivateFiles.write(file, p, "Written by lahar-testkit on every start.");
    }

    @Override
    public String toString() {
        return "RegistryAuth[username=" + username + ", password=***, file=" + file + "]";
    }
}
