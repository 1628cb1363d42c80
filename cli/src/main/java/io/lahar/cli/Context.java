package io.lahar.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where a Lahar system is, as a kubeconfig says where a cluster is: the connection context that
 * {@code bin/start} writes ({@code <data>/context}, a properties file) with the broker, the
 * registry, the REST API, the console, the kubeconfig, and the API token and Kafka client
 * settings by reference to their own files. Every verb finds each setting in one order:
 * <ol>
 *   <li>its flag ({@code --bootstrap}, {@code --registry}, {@code --server}, {@code --token}, ...);</li>
 *   <li>its environment variable ({@code LAHAR_BOOTSTRAP}, {@code LAHAR_REGISTRY}, {@code LAHAR_SERVER},
 *       {@code LAHAR_TOKEN} or {@code LAHAR_TOKEN_FILE}, {@code LAHAR_KAFKA_CONFIG});</li>
 *   <li>the context: {@code --context FILE}, else {@code $LAHAR_CONTEXT}, else
 *       {@code ./.lahar/context}, else {@code ~/.lahar/context};</li>
 *   <li>a built-in default, where there is one.</li>
 * </ol>
 */
public final class Context {

    public static final String ENV = "LAHAR_CONTEXT";
    public static final String BOOTSTRAP = "bootstrap";
    public static final String REGISTRY = "registry";
    public static final String REGISTRY_CREDENTIALS = "registry.credentials.file";
    public static final String SERVER = "server";
    public static final String TOKEN_FILE = "token.file";
    public static final String KAFKA_CONFIG = "kafka.config";

    /** The help of {@code --context}: one wording for the verbs over Kafka and over the REST API. */
    public static final String OPTION_HELP =
            "The Lahar context bin/start writes (default: $LAHAR_CONTEXT, ./.lahar/context, ~/.lahar/context).";

    private final Path file;
    private final Properties values;

    private Context(Path file, Properties values) {
        this.file = file;
        this.values = values;
    }

    /** The context named by {@code explicit} (a --context flag, may be null), or found as the class says; empty when none exists. */
    public static Context find(String explicit, Map<String, String> env) {
        if (explicit != null && !explicit.isBlank()) {
            return read(Path.of(explicit));
        }
        String named = env.get(ENV);
        if (named != null && !named.isBlank()) {
            return read(Path.of(named));
        }
        for (Path candidate : new Path[] {
            Path.of(".lahar", "context"),
            Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".lahar", "context")
        }) {
            if (Files.isRegularFile(candidate)) {
                return read(candidate);
            }
        }
        return new Context(null, new Properties());
    }

    private static Context read(Path path) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the Lahar context " + path + ": " + e.getMessage(), e);
        }
        return new Context(path, p);
    }

    /** The context's value of {@code key}; a relative file path in it is relative to the context's folder. */
    public Optional<String> get(String key) {
        String value = values.getProperty(key);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        if (key.endsWith(".file") || key.equals(KAFKA_CONFIG)) {
            Path path = Path.of(value.strip());
            if (!path.isAbsolute() && file != null && file.getParent() != null) {
                return Optional.of(file.getParent().resolve(path).toString());
            }
        }
        return Optional.of(value.strip());
    }

    /** The first of the flag, the environment variable, the context's key (each may be null); empty when none is set. */
    public Optional<String> resolve(String flag, Map<String, String> env, String envName, String key) {
        if (flag != null && !flag.isBlank()) {
            return Optional.of(flag.strip());
        }
        String fromEnv = envName == null ? null : env.get(envName);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(fromEnv.strip());
        }
        return key == null ? Optional.empty() : get(key);
    }

    /** Where the context was read from, for error messages ("no context" when none was found). */
    public String source() {
        return file == null ? "no context" : "context " + file;
    }
}
