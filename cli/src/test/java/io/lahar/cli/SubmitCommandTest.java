package io.lahar.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code lahar submit} refuses before it connects to anything: nothing here needs a broker. */
class SubmitCommandTest {

    @TempDir
    Path tmp;

    /** {@code lahar submit -f <manifest> ...} against a broker and a registry, with {@code extra} arguments. */
    static AdmitCommandTest.Run submit(Path file, String bootstrap, String registry, String... extra) {
        List<String> args = new ArrayList<>(
                List.of("submit", "-f", file.toString(), "--bootstrap", bootstrap, "--registry", registry));
        args.addAll(List.of(extra));
        return AdmitCommandTest.lahar(args.toArray(String[]::new));
    }

    private AdmitCommandTest.Run run(String manifest, String... extra) throws IOException {
        // Nothing listens there: what is refused here is refused before connecting.
        return submit(Files.writeString(tmp.resolve("job.yaml"), manifest), "127.0.0.1:1", "http://127.0.0.1:1", extra);
    }

    static final String JOB = """
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: j, namespace: team}
            spec:
              minAvailabel: 1
              tasks:
              - {name: a, replica: 2, template: {spec: {containers: [{name: c, image: x}]}}}
            """;

    @Test
    void unknownFieldsAreRefusedBeforeSendingAsKubectlDoesByDefault() throws IOException {
        AdmitCommandTest.Run r = run(JOB);
        assertThat(r.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(r.errLines())
                .containsExactly(
                        "error: spec.minAvailabel: unknown field (--validate=strict) [Job team/j]",
                        "error: spec.tasks[0].replica: unknown field (--validate=strict) [Job team/j]");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void anUnknownValidateModeIsAUsageError() throws IOException {
        AdmitCommandTest.Run r = run(JOB, "--validate=loose");
        assertThat(r.code()).isEqualTo(Lahar.EXIT_INPUT);
        assertThat(r.err()).contains("--validate must be strict, warn or ignore");
    }
}
