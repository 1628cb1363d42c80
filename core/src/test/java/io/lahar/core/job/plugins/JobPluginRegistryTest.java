package io.lahar.core.job.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.api.Job;
import io.lahar.core.job.TestJobs;
import io.lahar.core.job.WorldAction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class JobPluginRegistryTest {

    private static final Job JOB = TestJobs.admitted("""
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: j}
            spec:
              plugins:
                env: []
                svc: []
                ssh: []
                mpi: ["--master=m", "--worker=w"]
                tensorflow: ["--ps=m", "--worker=w"]
                pytorch: ["--master=m", "--worker=w"]
                hcclrank: ["--master=m", "--worker=w"]
                ray: ["--head=m", "--headContainer=c", "--worker=w", "--workerContainer=c"]
              tasks:
              - {name: m, replicas: 1, template: {spec: {containers: [{name: c, image: i}]}}}
              - {name: w, replicas: 2, template: {spec: {containers: [{name: c, image: i}]}}}
            """);

    /** The kind of object a world action names; null for pods and pod groups. */
    static String kind(WorldAction a) {
        return switch (a) {
            case WorldAction.CreateObject o -> o.kind();
            case WorldAction.DeleteObject d -> d.kind();
            case WorldAction.CreateConfigMap cm -> ObjectKind.CONFIG_MAP.kind();
            case WorldAction.RequestSshSecret s -> ObjectKind.SECRET.kind();
            case WorldAction.CreatePersistentVolumeClaim c -> ObjectKind.PERSISTENT_VOLUME_CLAIM.kind();
            default -> null;
        };
    }

    /** The kinds {@code plugin} names in the objects it creates, refreshes and deletes for {@code job}. */
    static Set<String> kindsNamed(JobPlugin plugin, Job job) {
        List<WorldAction> all = new ArrayList<>(plugin.onJobAdd(job));
        all.addAll(plugin.onJobUpdate(job));
        all.addAll(plugin.onJobDelete(job));
        Set<String> kinds = new TreeSet<>();
        all.stream().map(JobPluginRegistryTest::kind).filter(k -> k != null).forEach(kinds::add);
        return kinds;
    }

    @Test
    void theDefaultsAreVolcanosEightInAFixedOrder() {
        assertThat(JobPluginRegistry.defaults().names())
                .containsExactly("env", "svc", "ssh", "mpi", "tensorflow", "pytorch", "hcclrank", "ray");
        assertThat(JobPluginRegistry.defaults().objectKinds())
                .extracting(ObjectKind::kind)
                .containsExactly("ConfigMap", "NetworkPolicy", "Secret", "Service");
    }

    @Test
    void aJobsPluginsAreBuiltInRegistrationOrderAndNamesNotRegisteredAreSkipped() {
        Map<String, List<String>> named = new LinkedHashMap<>();
        named.put("mpi", List.of("--master=m"));
        named.put("pytorch", List.of());
        named.put("env", null);
        named.put("notaplugin", List.of());
        assertThat(JobPluginRegistry.defaults().plugins(named))
                .extracting(JobPlugin::name)
                .containsExactly("env", "mpi", "pytorch");
        assertThat(JobPluginRegistry.defaults().plugins(null)).isEmpty();
    }

    @Test
    void withAddsAPluginAfterTheOthersAndRefusesANameTakenAlready() {
        JobPluginType extra = new JobPluginType("extra", Set.of(), EnvPlugin::new);
        JobPluginRegistry more = JobPluginRegistry.defaults().with(extra);
        assertThat(more.names()).endsWith("ray", "extra");
        assertThat(JobPluginRegistry.defaults().has("extra")).isFalse();
        assertThatThrownBy(() -> more.with(extra))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"extra\" is registered already");
    }

    @Test
    void everyPluginNamesExactlyTheObjectKindsItDeclares() {
        for (JobPluginType type : JobPluginRegistry.defaults().types()) {
            JobPlugin plugin = type.create(JOB.spec().plugins().get(type.name()));
            Set<String> declared = new TreeSet<>();
            type.objects().forEach(k -> declared.add(k.kind()));
            assertThat(kindsNamed(plugin, JOB)).as(type.name()).isEqualTo(declared);
        }
    }

    @Test
    void aPluginChecksItsArgumentsAgainstTheJob() {
        JobPluginRegistry r = JobPluginRegistry.defaults();
        assertThat(r.validate("mpi", List.of("--master=m"), JOB.spec())).isEmpty();
        assertThat(r.validate("mpi", List.of("--master", "launcher"), JOB.spec()))
                .containsExactly("The specified mpi master task was not found: \"launcher\"");
        // As the runtime reads flags (Go's flag package): the last one given wins.
        assertThat(r.validate("mpi", List.of("--master=launcher", "--master=m"), JOB.spec()))
                .isEmpty();
        assertThat(r.validate("svc", null, JOB.spec())).isEmpty();
        assertThat(r.validate("pytorch", List.of("--master=m", "--worker=w"), JOB.spec()))
                .isEmpty();
        assertThat(r.validate("notaplugin", List.of(), JOB.spec())).isEmpty();
    }
}
