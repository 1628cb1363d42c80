package io.lahar.cli.priorityclass;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.cli.Lahar;
import io.lahar.schema.Topics;
import io.lahar.testkit.LaharInfra;
import io.lahar.testkit.WithLaharInfra;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PriorityClass verbs against a real broker and registry: classes applied from manifests as the
 * API server admits them, listed, changed, refused, deleted.
 */
@WithLaharInfra
class PriorityClassVerbsIT {

    record Run(int code, String out, String err) {}

    @TempDir
    Path dir;

    @Test
    void applyListRefuseAndDeleteClasses(LaharInfra infra) throws Exception {
        infra.createTopics(
                List.of(new NewTopic(Topics.PRIORITY_CLASSES.name(), Topics.PRIORITY_CLASSES.partitions(), (short) 1)
                        .configs(Map.of("cleanup.policy", "compact"))));
        String[] at = {"--bootstrap", infra.bootstrapServers(), "--registry", infra.registryUrl()};
        String id = UUID.randomUUID().toString().substring(0, 8);
        String high = "it-high-" + id;
        String normal = "it-normal-" + id;

        Run applied = apply(at, """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: 1000000
                description: training first
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: 10
                globalDefault: true
                """.formatted(high, normal));
        assertThat(applied.code()).as(applied.err()).isZero();
        assertThat(applied.out()).contains("Created PriorityClass: " + high, "Created PriorityClass: " + normal);

        Run list = lahar(at, "priorityclass", "list");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out().lines()).first().asString().startsWith("NAME");
        assertThat(list.out().lines())
                .anySatisfy(l -> assertThat(l).startsWith(high).contains("1000000", "false", "training first"))
                .anySatisfy(l -> assertThat(l).startsWith(normal).contains("10", "true"));

        Run refused = apply(at, """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: 2000000
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: other-default-%s}
                value: 5
                globalDefault: true
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: too-high-%s}
                value: 1000000001
                preemptionPolicy: Sometimes
                """.formatted(high, id, id));
        assertThat(refused.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(refused.err())
                .contains("error: value: field is immutable [PriorityClass " + high + "]")
                .contains("error: globalDefault: PriorityClass " + normal
                        + " is already marked as default. Only one default can exist")
                .contains("error: value: must be no greater than 1000000000")
                .contains("error: preemptionPolicy: unsupported value \"Sometimes\"");
        assertThat(lahar(at, "priorityclass", "list").out()).doesNotContain("other-default-" + id, "too-high-" + id);

        Run described = apply(at, """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: 1000000
                description: training before batch
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: 10
                globalDefault: true
                """.formatted(high, normal));
        assertThat(described.code()).as(described.err()).isZero();
        assertThat(described.out()).contains("Configured PriorityClass: " + high, "Unchanged PriorityClass: " + normal);

        // A class whose pods never preempt is kept with its policy, which then cannot change.
        String gentle = "it-gentle-" + id;
        Run never = apply(at, """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: 500
                preemptionPolicy: Never
                """.formatted(gentle));
        assertThat(never.code()).as(never.err()).isZero();
        assertThat(lahar(at, "priorityclass", "list", "-o", "json").out()).contains("\"Never\"");
        Run changed = apply(at, """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: %s}
                value: 500
                """.formatted(gentle));
        assertThat(changed.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(changed.err()).contains("error: preemptionPolicy: field is immutable");
        assertThat(lahar(at, "priorityclass", "delete", "--name", gentle).code())
                .isZero();

        for (String name : List.of(high, normal)) {
            Run deleted = lahar(at, "priorityclass", "delete", "--name", name);
            assertThat(deleted.code()).as(deleted.err()).isZero();
            assertThat(deleted.out()).contains("Deleted PriorityClass: " + name);
        }
        Run gone = lahar(at, "priorityclass", "delete", "--name", high);
        assertThat(gone.code()).isEqualTo(Lahar.EXIT_REJECTED);
        assertThat(gone.err()).contains("PriorityClass \"" + high + "\" not found");
        assertThat(lahar(at, "priorityclass", "list").out()).doesNotContain(high, normal);
    }

    private Run apply(String[] at, String yaml) throws Exception {
        Path file = Files.writeString(Files.createTempFile(dir, "pc", ".yaml"), yaml);
        return lahar(at, "priorityclass", "apply", "-f", file.toString());
    }

    static Run lahar(String[] at, String... args) {
        String[] all = new String[args.length + at.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(at, 0, all, args.length, at.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Lahar.run(all, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }
}
