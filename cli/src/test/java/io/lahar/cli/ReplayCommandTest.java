package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Usage errors are found before any broker is contacted (the bootstrap here points nowhere). */
class ReplayCommandTest {

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Lahar.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err));
    }

    @Test
    void aJobThatIsNotNamespaceSlashNameIsAUsageError() {
        int code =
                run("replay", "--bootstrap", "127.0.0.1:1", "--registry", "http://127.0.0.1:1", "--job", "just-a-name");

        assertThat(code).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString()).contains("--job: expected NS/NAME, got \"just-a-name\"");
    }

    @Test
    void anUntilThatIsNeitherATimeNorAnOffsetIsAUsageError() {
        int code = run(
                "replay",
                "--bootstrap",
                "127.0.0.1:1",
                "--registry",
                "http://127.0.0.1:1",
                "--job",
                "default/j",
                "--until",
                "yesterday");

        assertThat(code).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(err.toString())
                .contains("--until: expected an ISO-8601 time")
                .contains("\"yesterday\"");
    }

    @Test
    void aReasonIsNotRepeatedWhenTheMessageStartsWithIt() {
        assertThat(ReplayCommand.why("CommandIssued", "CommandIssued: command AbortJob"))
                .isEqualTo("CommandIssued: command AbortJob");
        assertThat(ReplayCommand.why("MinAvailableReached", "minAvailable 1 reached"))
                .isEqualTo("MinAvailableReached: minAvailable 1 reached");
        assertThat(ReplayCommand.why("Created", null)).isEqualTo("Created");
        assertThat(ReplayCommand.why(null, null)).isEqualTo("-");
    }
}
