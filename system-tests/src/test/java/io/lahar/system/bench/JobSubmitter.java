package io.lahar.system.bench;

import io.lahar.schema.JobCommand;
import io.lahar.schema.SubmitJob;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Submits Volcano Jobs at a steady rate as {@code SubmitJob} commands on {@code lahar.job-commands}
 * (what {@code lahar submit} and the REST API write), each a gang of one task whose pods run
 * {@code podDuration} on the simulated nodes and are deleted with the job once it finishes
 * ({@code ttlSecondsAfterFinished: 0}), so the cluster holds only the jobs in flight.
 * The command's time is the submit time the latency is measured from.
 */
final class JobSubmitter implements AutoCloseable {

    private final KafkaProducer<String, JobCommand> producer;
    private final String namespace;
    private final String prefix;
    private final int pods;
    private final String podDuration;
    private final String podCpu;
    private final Tally tally;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private int sent;

    JobSubmitter(
            Map<String, Object> kafka,
            RegistrySerdes serdes,
            String namespace,
            String prefix,
            int pods,
            String podDuration,
            String podCpu,
            Tally tally) {
        Map<String, Object> config = new HashMap<>(kafka);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-system-submitter");
        @SuppressWarnings("unchecked")
        Serializer<JobCommand> value =
                (Serializer<JobCommand>) serdes.value(JobCommand.class).serializer();
        this.producer = new KafkaProducer<>(config, new StringSerializer(), value);
        this.namespace = namespace;
        this.prefix = prefix;
        this.pods = pods;
        this.podDuration = podDuration;
        this.podCpu = podCpu;
        this.tally = tally;
    }

    /**
     * Submits {@code jobsPerSecond} jobs a second from now until {@code until} (epoch ms), spread
     * evenly in steps of 20 ms; returns how many it sent in all (every call continues the numbering).
     */
    int run(double jobsPerSecond, long until) throws InterruptedException {
        long begin = System.currentTimeMillis();
        int sentBefore = sent;
        for (long now = begin; now < until; now = System.currentTimeMillis()) {
            long due = (long) ((now - begin) / 1000.0 * jobsPerSecond);
            while (sent - sentBefore < due) {
                submit("j" + sent++);
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a submit failed", failure.get());
            }
            Thread.sleep(20);
        }
        producer.flush();
        return sent;
    }

    private void submit(String suffix) {
        String name = prefix + suffix;
        Instant at = Instant.now();
        JobCommand command = JobCommand.newBuilder()
                .setRequestId(UUID.randomUUID().toString())
                .setSender("bench-system")
                .setNamespace(namespace)
                .setName(name)
                .setTime(at)
                .setCommand(new SubmitJob(manifest(name)))
                .build();
        tally.submitted(name, at.toEpochMilli());
        producer.send(
                new ProducerRecord<>(Topics.JOB_COMMANDS.name(), Topics.jobKey(namespace, name), command),
                (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
    }

    /** One gang of {@code pods} pods (minAvailable: all), in JSON as the REST API takes a manifest. */
    String manifest(String name) {
        return """
                {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",\
                "metadata":{"name":"%s","namespace":"%s"},\
                "spec":{"minAvailable":%d,"schedulerName":"volcano","ttlSecondsAfterFinished":0,\
                "tasks":[{"name":"work","replicas":%d,"template":{\
                "metadata":{"annotations":{"lahar.io/sim-duration":"%s"}},\
                "spec":{"restartPolicy":"Never","containers":[{"name":"work","image":"busybox",\
                "resources":{"requests":{"cpu":"%s"}}}]}}}]}}""".formatted(name, namespace, pods, pods, podDuration, podCpu);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
