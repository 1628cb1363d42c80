package io.lahar.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lahar.schema.Queue;
import io.lahar.schema.QueueState;
import io.lahar.schema.Topics;
import io.lahar.testkit.ServiceProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code deploy/grafana/lahar.json}: every metric a panel or variable query names is one that the
 * running system's services expose at {@code /q/metrics} once a job has run and a record was
 * dead-lettered, so the dashboard never shows an empty panel for a name nobody exports.
 */
@ExtendWith(LaharSystemExtension.class)
class GrafanaDashboardIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyQueryOfTheDashboardNamesAMetricTheSystemExposes(LaharSystem system) throws Exception {
        Path root = ProjectRoot.DIR;
        JsonNode dashboard =
                JSON.readTree(root.resolve("deploy/grafana/lahar.json").toFile());
        List<String> queries = PromQl.queries(dashboard);
        assertThat(queries).as("the dashboard's queries").hasSizeGreaterThan(10);

        // Work for every service: a queue with a capability, a job that runs, one that fits no node
        // (unschedulable), one rejected, one deleted through the REST API, a poison record.
        String queue = "metrics-" + system.run;
        try (var producer = new KafkaProducer<String, Queue>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, system.infra.bootstrapServers()),
                new StringSerializer(),
                system.serdes.value(Queue.class).serializer())) {
            producer.send(new ProducerRecord<>(
                            Topics.QUEUES.name(),
                            queue,
                            Queue.newBuilder()
                                    .setName(queue)
                                    .setState(QueueState.Open)
                                    .setWeight(2)
                                    .setCapability(Map.of("cpu", "8", "memory", "16Gi"))
                                    .setTime(Instant.now())
                                    .build()))
                    .get();
        }
        system.submit(job("metrics-job", system.schedulerName, "1"));
        system.submit(job("too-big", system.schedulerName, "100"));
        system.submit("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: no-tasks
                spec:
                  tasks: []
                """);
        try (var producer = new KafkaProducer<String, byte[]>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, system.infra.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(
                            Topics.POD_EVENTS.name(),
                            system.key("poison-metrics"),
                            "garbage".getBytes(StandardCharsets.UTF_8)))
                    .get();
            // The bridge reads pod intents of its namespace: an error it counts and dead-letters.
            producer.send(new ProducerRecord<>(
                            Topics.POD_INTENTS.name(),
                            system.key("poison-metrics"),
                            "garbage".getBytes(StandardCharsets.UTF_8)))
                    .get();
        }
        await().atMost(Duration.ofSeconds(90))
                .until(() -> system.records
                        .status(system.key("too-big"))
                        .map(r -> r.getStatus().getState().getReason() != null)
                        .orElse(false));

        Set<String> needed = new TreeSet<>();
        queries.forEach(q -> needed.addAll(PromQl.metricNames(q)));
        assertThat(needed).as("metric names in the dashboard").isNotEmpty();
        Set<String>[] exposed = new Set[1];
        try {
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        if (!exposed(system.services()).contains("lahar_rest_commands_total")) {
                            // A REST command (the CLI's delete) to give the streams-app's counter a value.
                            system.lahar("job", "delete", "no-such-job-" + system.run, "-n", system.namespace);
                        }
                        exposed[0] = exposed(system.services());
                        return exposed[0].containsAll(needed);
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            Set<String> missing = new TreeSet<>(needed);
            missing.removeAll(exposed[0]);
            throw new AssertionError("the dashboard names metrics no service exposes: " + missing + system.logs(), e);
        }
        LaharSystem.Cli deleted = system.lahar("job", "delete", "too-big", "-n", system.namespace);
        assertThat(deleted.exit()).as(deleted.toString()).isZero();
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/exposed-metrics.txt"), String.join("\n", exposed[0]) + "\n");
    }

    private static String job(String name, String schedulerName, String cpu) {
        return """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: %s
                spec:
                  schedulerName: %s
                  tasks:
                  - name: main
                    replicas: 1
                    template:
                      metadata:
                        annotations:
                          lahar.io/sim-duration: 1s
                      spec:
                        containers:
                        - name: main
                          image: img
                          resources: {requests: {cpu: "%s"}}
                """.formatted(name, schedulerName, cpu);
    }

    /** Every metric name (series names, as Prometheus scrapes them) the services expose now. */
    static Set<String> exposed(List<ServiceProcess> services) {
        Set<String> names = new TreeSet<>();
        for (ServiceProcess s : services) {
            String text = s.get("/q/metrics");
            if (text == null) {
                continue;
            }
            text.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).forEach(l -> names.add(l.split("[{ ]", 2)[0]));
        }
        return names;
    }

    /** The PromQL of a Grafana dashboard, and the metric names in it. */
    static final class PromQl {
        private static final Set<String> KEYWORDS = Set.of(
                "by",
                "without",
                "on",
                "ignoring",
                "group_left",
                "group_right",
                "bool",
                "offset",
                "and",
                "or",
                "unless",
                "inf",
                "nan");

        /** Every panel target's expr and every query variable's query. */
        static List<String> queries(JsonNode dashboard) {
            List<String> out = new ArrayList<>();
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    out.add(target.path("expr").asText());
                }
            }
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                if (variable.path("type").asText().equals("query")) {
                    out.add(variable.path("definition").asText());
                }
            }
            return out;
        }

        /**
         * The metric names of a query: identifiers that are not functions (followed by a
         * parenthesis), keywords, label names (in braces or grouping lists) or durations.
         */
        static Set<String> metricNames(String query) {
            String q = query.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"") // strings
                    .replaceAll("\\{[^}]*}", " ") // label matchers
                    .replaceAll("\\[[^]]*]", " ") // ranges
                    .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
            if (q.startsWith("label_values(")) {
                q = q.replaceAll(",\\s*[a-zA-Z_]+\\s*\\)\\s*$", ")"); // label_values(metric, label)
            }
            Set<String> names = new TreeSet<>();
            var m = java.util.regex.Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*").matcher(q);
            while (m.find()) {
                String word = m.group();
                int after = m.end();
                while (after < q.length() && q.charAt(after) == ' ') {
                    after++;
                }
                boolean function = after < q.length() && q.charAt(after) == '(';
                if (!function
                        && !KEYWORDS.contains(word.toLowerCase(java.util.Locale.ROOT))
                        && !(m.start() > 0 && Character.isDigit(q.charAt(m.start() - 1)))) {
                    names.add(word);
                }
            }
            return names;
        }
    }
}
