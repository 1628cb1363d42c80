package io.lahar.cli.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.Lahar;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The queue verbs' usage errors, caught before any connection is tried. */
class QueueCommandTest {

    record Run(int code, String out, String err) {}

    static Run lahar(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lahar.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void theGroupListsVcctlsVerbs() {
        Run r = lahar("queue", "--help");

        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("create", "list", "get", "delete", "operate");
    }

    @Test
    void anUnknownOutputFormatIsAUsageError() {
        Run r = lahar("queue", "list", "--bootstrap", "127.0.0.1:1", "--registry", "http://127.0.0.1:1", "-o", "xml");

        assertThat(r.code()).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(r.err()).contains("error: --output must be table, json or yaml, not \"xml\"");
    }

    @Test
    void anUnknownActionIsAUsageErrorAndWeightOnlyGoesWithUpdate() {
        Run bad = lahar(
                "queue",
                "operate",
                "-n",
                "q",
                "--action",
                "drain",
                "--bootstrap",
                "127.0.0.1:1",
                "--registry",
                "http://127.0.0.1:1");
        Run weight = lahar(
                "queue",
                "operate",
                "-n",
                "q",
                "--action",
                "close",
                "--weight",
                "3",
                "--bootstrap",
                "127.0.0.1:1",
                "--registry",
                "http://127.0.0.1:1");

        assertThat(bad.code()).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(bad.err()).contains("--action must be open, close or update");
        assertThat(weight.code()).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(weight.err()).contains("--weight is only allowed with --action update");
    }

    @Test
    void theNameIsRequired() {
        Run r = lahar("queue", "create", "--bootstrap", "127.0.0.1:1", "--registry", "http://127.0.0.1:1");

        assertThat(r.code()).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(r.err()).contains("--name");
    }
}
