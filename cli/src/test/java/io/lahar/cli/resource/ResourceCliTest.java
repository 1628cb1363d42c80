package io.lahar.cli.resource;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.Lahar;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The REST kinds' commands, built from their resources: the same verbs, each with its kind's help. */
class ResourceCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int lahar(String... args) {
        return Lahar.run(args, new PrintWriter(out), new PrintWriter(err));
    }

    @Test
    void everyKindHasTheFourVerbsThenItsOwnThenHelp() {
        assertThat(lahar("cronjob", "--help")).isZero();

        assertThat(out.toString())
                .contains("Create, list, view, suspend, resume and delete Volcano CronJobs")
                .containsSubsequence("create", "list", "view", "delete", "suspend", "resume", "help");
        assertThat(out.toString().lines().filter(l -> l.startsWith("  create ")))
                .singleElement()
                .asString()
                .contains("Create CronJobs from a file, or update the ones of those names");
    }

    @Test
    void withoutAVerbTheCommandNamesEveryVerb() {
        assertThat(lahar("jobtemplate")).isEqualTo(Lahar.EXIT_INPUT);

        assertThat(err.toString()).contains("a jobtemplate verb is required: create, list, view, delete");
    }

    @Test
    void aFilterOfTheResourceIsAnOptionOfListOnly() {
        assertThat(lahar("flow", "list", "--help")).isZero();
        assertThat(out.toString()).contains("-p, --phase=<phase>").contains("Only the flows in this phase");

        out.getBuffer().setLength(0);
        assertThat(lahar("jobtemplate", "list", "--help")).isZero();
        assertThat(out.toString()).doesNotContain("--phase");
    }
}
