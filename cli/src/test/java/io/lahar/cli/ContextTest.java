package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The order every verb finds a setting in: flag, environment variable, context, default. */
class ContextTest {

    @TempDir
    Path dir;

    private Path context(String text) throws Exception {
        Path file = dir.resolve("context");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void aFlagWinsOverTheEnvironmentWhichWinsOverTheContext() throws Exception {
        Path file = context("bootstrap=ctx:9092\nregistry=http://ctx/apis/registry/v3\n");
        Context ctx = Context.find(file.toString(), Map.of());

        assertThat(ctx.resolve("flag:1", Map.of("LAHAR_BOOTSTRAP", "env:2"), "LAHAR_BOOTSTRAP", Context.BOOTSTRAP))
                .contains("flag:1");
        assertThat(ctx.resolve(null, Map.of("LAHAR_BOOTSTRAP", "env:2"), "LAHAR_BOOTSTRAP", Context.BOOTSTRAP))
                .contains("env:2");
        assertThat(ctx.resolve(null, Map.of(), "LAHAR_BOOTSTRAP", Context.BOOTSTRAP))
                .contains("ctx:9092");
        assertThat(ctx.resolve(" ", Map.of("LAHAR_BOOTSTRAP", ""), "LAHAR_BOOTSTRAP", Context.BOOTSTRAP))
                .as("blank is unset")
                .contains("ctx:9092");
        assertThat(ctx.resolve(null, Map.of(), "LAHAR_SERVER", Context.SERVER)).isEmpty();
    }

    @Test
    void theContextIsFoundThroughTheEnvironmentAndItsFilesAreRelativeToIt() throws Exception {
        Path file = context("token.file=api-token\nkafka.config=/etc/lahar/client.properties\n");
        Context ctx = Context.find(null, Map.of(Context.ENV, file.toString()));

        assertThat(ctx.get(Context.TOKEN_FILE))
                .contains(dir.resolve("api-token").toString());
        assertThat(ctx.get(Context.KAFKA_CONFIG)).contains("/etc/lahar/client.properties");
        assertThat(ctx.source()).isEqualTo("context " + file);
    }

    @Test
    void noContextAnywhereIsEmptyAndAMissingNamedOneIsAnError() {
        Context none = Context.find(null, Map.of("HOME", dir.toString()));
        assertThat(none.get(Context.BOOTSTRAP)).isEmpty();
        assertThat(none.source()).isEqualTo("no context");
        assertThatThrownBy(() -> Context.find(dir.resolve("nope").toString(), Map.of()))
                .hasMessageContaining("cannot read the Lahar context");
    }

    @Test
    void kafkaOptionsTakeTheSecuritySettingsOfTheClientFileAndTheBootstrapOfTheFlag() throws Exception {
        Path client = dir.resolve("client.properties");
        Files.writeString(client, """
                bootstrap.servers=ignored:1
                security.protocol=SASL_SSL
                sasl.mechanism=SCRAM-SHA-512
                ssl.truststore.location=/tmp/t.p12
                linger.ms=5
                """);
        Path file = context("registry=http://r/apis/registry/v3\nkafka.config=" + client + "\n");
        KafkaOptions options = new KafkaOptions();
        options.context = file.toString();
        options.bootstrap = "broker:9093";
        CommandLine cli = new CommandLine(new Lahar());

        KafkaOptions.Resolved where = options.resolve(cli.getCommandSpec(), Map.of());

        assertThat(where.kafka())
                .containsEntry("bootstrap.servers", "broker:9093")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.location", "/tmp/t.p12")
                .doesNotContainKey("linger.ms");
        assertThat(where.registry()).isEqualTo("http://r/apis/registry/v3");
    }

    @Test
    void aVerbWithoutABrokerSaysWhereToSetOne() {
        StringWriter err = new StringWriter();
        int code = Lahar.run(
                new String[] {"watch", "--context", "/dev/null"},
                new PrintWriter(new StringWriter()),
                new PrintWriter(err));

        assertThat(code).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString())
                .contains("--bootstrap is required (or LAHAR_BOOTSTRAP, or a Lahar context; context /dev/null)");
    }
}
