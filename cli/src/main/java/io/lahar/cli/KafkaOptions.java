package io.lahar.cli;

import io.lahar.schema.KafkaClients;
import io.lahar.schema.KafkaSettings;
import io.lahar.schema.serde.RegistrySerdes;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Where the topics are, for every verb that reads or writes them: the broker (with its security
 * settings) and the schema registry, resolved in the {@link Context}'s order.
 */
public final class KafkaOptions {

    @Option(names = "--context", paramLabel = "FILE", description = Context.OPTION_HELP)
    String context;

    @Option(
            names = "--bootstrap",
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (default: $LAHAR_BOOTSTRAP, else the context's).")
    String bootstrap;

    @Option(
            names = "--registry",
            paramLabel = "URL",
            description = "Apicurio Registry v3 API URL (default: $LAHAR_REGISTRY, else the context's).")
    String registry;

    @Option(
            names = "--registry-credentials",
            paramLabel = "FILE",
            description =
                    "The registry's username= and password= (default: $LAHAR_REGISTRY_CREDENTIALS, else the context's).")
    String registryCredentials;

    @Option(
            names = "--kafka-config",
            paramLabel = "FILE",
            description =
                    "Kafka client settings: security.protocol, sasl.*, ssl.* (default: $LAHAR_KAFKA_CONFIG, else the context's).")
    String kafkaConfig;

    /** The broker and registry to use; a usage error (exit 2) naming where to set what is missing. */
    public Resolved resolve(CommandSpec spec) {
        return resolve(spec, System.getenv());
    }

    Resolved resolve(CommandSpec spec, Map<String, String> env) {
        Context ctx;
        try {
            ctx = Context.find(context, env);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        String servers = ctx.resolve(bootstrap, env, "LAHAR_BOOTSTRAP", Context.BOOTSTRAP)
                .orElseThrow(() -> new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--bootstrap is required (or LAHAR_BOOTSTRAP, or a Lahar context; " + ctx.source() + ")"));
        String registryUrl = ctx.resolve(registry, env, "LAHAR_REGISTRY", Context.REGISTRY)
                .orElseThrow(() -> new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--registry is required (or LAHAR_REGISTRY, or a Lahar context; " + ctx.source() + ")"));
        Map<String, Object> kafka;
        RegistrySerdes.Credentials credentials;
        try {
            kafka = ctx.resolve(kafkaConfig, env, "LAHAR_KAFKA_CONFIG", Context.KAFKA_CONFIG)
                    .map(file -> KafkaSettings.fromFile(Path.of(file), servers))
                    .orElseGet(() -> KafkaSettings.plaintext(servers));
            credentials = ctx.resolve(
                            registryCredentials, env, "LAHAR_REGISTRY_CREDENTIALS", Context.REGISTRY_CREDENTIALS)
                    .map(file -> RegistrySerdes.Credentials.fromFile(Path.of(file)))
                    .orElse(null);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        return new Resolved(kafka, registryUrl, credentials);
    }

    /**
     * @param kafka       the connection settings every client of the verb starts from (a copy each time)
     * @param registry    the registry's v3 API URL
     * @param credentials the registry's, or null for an open registry
     */
    public record Resolved(Map<String, Object> kafka, String registry, RegistrySerdes.Credentials credentials) {

        /** The serdes of this registry, with its credentials. */
        public RegistrySerdes serdes() {
            return new RegistrySerdes(registry, credentials);
        }

        /** Where every client of the verb is built, from these connection settings. */
        public KafkaClients clients() {
            return KafkaClients.of(kafka);
        }

        public String bootstrap() {
            return (String) kafka.get(KafkaSettings.BOOTSTRAP_SERVERS);
        }
    }
}
