package io.lahar.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.CreatePod;
import io.lahar.schema.DeletePod;
import io.lahar.schema.JobStatusRecord;
import io.lahar.schema.JobTransition;
import io.lahar.schema.PodEvent;
import io.lahar.schema.PodGroup;
import io.lahar.schema.PodIntent;
import io.lahar.schema.Topics;
import io.lahar.schema.serde.RegistrySerdes;
import io.lahar.testkit.LaharInfraTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The job lifecycle on the real broker and registry, driven the way the rest of Lahar drives it:
 * a plain producer sends the job command, the scheduler's pod-group decision and the kubelet's
 * pod events; the test reads the pod groups, pod intents, status and transitions the streams-app
 * publishes, and the phases must be the ones {@code lahar simulate} gives for the same script.
 */
@QuarkusTest
@QuarkusTestResource(LaharInfraTestResource.class)
@QuarkusTestResource(FreshStateDirResource.class)
class JobLifecycleIT {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @ConfigProperty(name = "lahar.schema-registry.url")
    String registryUrl;

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    /** One job, seen through the topics. */
    private final class JobUnderTest implements AutoCloseable {
        final String name;
        final String key;
        final KeyedReader<JobStatusRecord> status;
        final KeyedReader<JobTransition> transitions;
        final KeyedReader<PodIntent> intents;
        final KeyedReader<PodGroup> podGroups;
        final KafkaProducer<String, SpecificRecord> producer;
        long time = System.currentTimeMillis();

        JobUnderTest(String name) {
            this.name = name;
            this.key = Topics.jobKey("default", name);
            status = reader(Topics.JOB_STATUS, JobStatusRecord.class);
            transitions = reader(Topics.JOB_TRANSITIONS, JobTransition.class);
            intents = reader(Topics.POD_INTENTS, PodIntent.class);
            podGroups = reader(Topics.POD_GROUPS, PodGroup.class);
            RegistrySerdes serdes = new RegistrySerdes(registryUrl);
            // The registry serializer writes any generated record (the class only matters for reading).
            @SuppressWarnings({"unchecked", "rawtypes"})
            org.apache.kafka.common.serialization.Serializer<SpecificRecord> values =
                    (org.apache.kafka.common.serialization.Serializer)
                            serdes.value(PodEvent.class).serializer();
            producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrapServers,
                            ProducerConfig.ACKS_CONFIG,
                            "all"),
                    new StringSerializer(),
                    values);
        }

        private <T extends SpecificRecord> KeyedReader<T> reader(Topics.TopicSpec topic, Class<T> type) {
            return new KeyedReader<>(bootstrapServers, registryUrl, topic.name(), type, key);
        }

        void send(Topics.TopicSpec topic, SpecificRecord value) {
            try {
                producer.send(new ProducerRecord<>(topic.name(), key, value)).get();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        void submit(String manifest) {
            send(Topics.JOB_COMMANDS, LifecycleScript.submit("submit-" + run, name, manifest, time));
        }

        /** As the scheduler would: the job's current pod group is Inqueue. */
        void admitGang(int groupsSoFar) {
            // Each new gang is first published Pending; the scheduler's answer re-publishes it Inqueue.
            PodGroup group = podGroups
                    .await(g -> g != null && g.getStatus().getPhase().equals("Pending"), groupsSoFar)
                    .get(groupsSoFar - 1);
            time += 1_000;
            send(Topics.SCHEDULER_DECISIONS, LifecycleScript.podGroupPhase(name, group.getName(), "Inqueue", time));
        }

        /** As the kubelet would, through the bridge. */
        void pod(String task, int index, int version, String phase, Integer exitCode, boolean deleted) {
            time += 1_000;
            PodEvent event = LifecycleScript.podEvent(name, task, index, version, phase, exitCode, deleted, time);
            send(Topics.POD_EVENTS, event);
        }

        void allPods(int version, String phase) {
            pod("ps", 0, version, phase, null, false);
            pod("worker", 0, version, phase, null, false);
            pod("worker", 1, version, phase, null, false);
        }

        JobStatusRecord awaitPhase(String phase, int version) {
            return status.await(
                            s -> s != null
                                    && s.getStatus().getState().getPhase().equals(phase)
                                    && s.getStatus().getVersion() == version,
                            1)
                    .getLast();
        }

        List<String> phases() {
            return transitions.all().stream().map(JobTransition::getTo).toList();
        }

        @Override
        public void close() {
            status.close();
            transitions.close();
            intents.close();
            podGroups.close();
            producer.close();
        }
    }

    @Test
    void tfJobWithOnePsAndTwoWorkersRunsToCompletion() {
        String name = "tf-ok-" + run;
        String manifest = LifecycleScript.tfJob(name);
        try (JobUnderTest job = new JobUnderTest(name)) {
            job.submit(manifest);
            job.awaitPhase("Pending", 0);
            job.admitGang(1);
            List<PodIntent> creates = job.intents.await(i -> i.getIntent() instanceof CreatePod, 3);
            assertThat(creates)
                    .extracting(i -> ((CreatePod) i.getIntent()).getPod())
                    .containsExactlyInAnyOrder(name + "-ps-0", name + "-worker-0", name + "-worker-1");
            assertThat(creates)
                    .allSatisfy(i -> assertThat(((CreatePod) i.getIntent()).getTemplate())
                            .contains("-img"));

            job.allPods(0, "Running");
            JobStatusRecord running = job.awaitPhase("Running", 0);
            assertThat(running.getStatus().getMinAvailable()).isEqualTo(3);
            job.pod("worker", 0, 0, "Succeeded", 0, false);
            job.pod("worker", 1, 0, "Succeeded", 0, false);
            job.pod("ps", 0, 0, "Succeeded", 0, false);
            JobStatusRecord done = job.awaitPhase("Completed", 0);
            assertThat(done.getStatus().getSucceeded()).isEqualTo(3);

            job.transitions.await(t -> t.getTo().equals("Completed"), 1);
            assertThat(job.phases())
                    .containsExactly("Pending", "Running", "Completed")
                    .containsExactlyElementsOf(
                            LifecycleScript.simulatedPhases(manifest, LifecycleScript.RUN_TO_COMPLETION));
        }
    }

    @Test
    void theTickersClockDeletesAFinishedJobWhenItsTtlExpires() {
        String name = "tf-ttl-" + run;
        // Time in this test runs a few seconds ahead of the wall clock: the TTL fires on a real tick.
        String manifest =
                LifecycleScript.tfJob(name).replace("  maxRetry: 2\n", "  maxRetry: 2\n  ttlSecondsAfterFinished: 2\n");
        try (JobUnderTest job = new JobUnderTest(name)) {
            job.submit(manifest);
            job.admitGang(1);
            job.intents.await(i -> i.getIntent() instanceof CreatePod, 3);
            job.allPods(0, "Running");
            job.allPods(0, "Succeeded");
            job.awaitPhase("Completed", 0);
            job.status.await(s -> s == null, 1);
            job.podGroups.await(g -> g == null, 1);
        }
    }

    @Test
    void aFailingWorkerRestartsTheJobUntilMaxRetryThenItFails() {
        String name = "tf-retry-" + run;
        String manifest = LifecycleScript.tfJob(name);
        try (JobUnderTest job = new JobUnderTest(name)) {
            job.submit(manifest);
            job.admitGang(1);
            job.intents.await(i -> i.getIntent() instanceof CreatePod c && c.getJobVersion() == 0, 3);
            job.allPods(0, "Running");
            job.awaitPhase("Running", 0);

            // PodFailed -> RestartJob (spec.policies[0]): every pod of version 0 is deleted, version 1 begins.
            job.pod("worker", 0, 0, "Failed", 1, false);
            JobStatusRecord restarting = job.awaitPhase("Restarting", 1);
            assertThat(restarting.getStatus().getRetryCount()).isEqualTo(1);
            job.intents.await(i -> i.getIntent() instanceof DeletePod, 3);
            // The bridge deletes the pods: their deletion comes back as events.
            job.pod("ps", 0, 0, "Running", null, true);
            job.pod("worker", 0, 0, "Failed", 1, true);
            job.pod("worker", 1, 0, "Running", null, true);

            // A restarted gang queues afresh: a new pod group record after the tombstone. As in
            // Volcano, the job leaves Restarting once the scheduler admitted the new gang and the
            // old pods are gone.
            job.admitGang(2);
            job.awaitPhase("Pending", 1);
            List<PodIntent> recreated =
                    job.intents.await(i -> i.getIntent() instanceof CreatePod c && c.getJobVersion() == 1, 3);
            assertThat(recreated)
                    .extracting(i -> ((CreatePod) i.getIntent()).getPod())
                    .containsExactlyInAnyOrder(name + "-ps-0", name + "-worker-0", name + "-worker-1");
            job.allPods(1, "Running");
            job.awaitPhase("Running", 1);
            job.pod("worker", 0, 1, "Failed", 1, false);

            JobStatusRecord failed = job.awaitPhase("Failed", 2);
            assertThat(failed.getStatus().getRetryCount()).isEqualTo(2);
            assertThat(failed.getStatus().getState().getReason()).isEqualTo("MaxRetryExceeded");
            job.podGroups.await(g -> g == null, 2); // a tombstone on each kill: the restart's and the failure's

            job.transitions.await(t -> t.getTo().equals("Failed"), 1);
            assertThat(job.phases())
                    .containsExactly("Pending", "Running", "Restarting", "Pending", "Running", "Restarting", "Failed")
                    .containsExactlyElementsOf(
                            LifecycleScript.simulatedPhases(manifest, LifecycleScript.RESTART_UNTIL_FAILED));
            JobTransition restart = job.transitions.all().get(2);
            assertThat(restart.getEvent()).isEqualTo("PodFailed");
            assertThat(restart.getPolicy()).isEqualTo("spec.policies[0]");
            assertThat(restart.getSourceTopic()).isEqualTo(Topics.POD_EVENTS.name());
        }
    }
}
