package io.lahar.core.job.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.TaskSpec;
import io.lahar.core.job.JobPods;
import io.lahar.core.job.TestJobs;
import io.lahar.core.job.WorldAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobPluginsTest {

    private static final Job MPI = TestJobs.admitted("""
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: mpi, namespace: hpc}
            spec:
              minAvailable: 3
              plugins:
                env: []
                svc: ["--disable-network-policy"]
                ssh: ["--ssh-key-file-path=/home/mpi/.ssh"]
                mpi: ["--master=mpimaster", "--worker=mpiworker", "--port=2222"]
              tasks:
              - name: mpimaster
                replicas: 1
                template: {spec: {containers: [{name: m, image: i, ports: [{containerPort: 80}]}]}}
              - name: mpiworker
                replicas: 2
                template: {spec: {containers: [{name: w, image: i}]}}
            """);

    private static ObjectNode pod(String task, int index) {
        TaskSpec t = MPI.spec().tasksOrEmpty().stream()
                .filter(x -> x.name().equals(task))
                .findFirst()
                .orElseThrow();
        return JobPods.create(
                MPI,
                t,
                index,
                2,
                1,
                "mpi-pg",
                JobPluginRegistry.defaults().plugins(MPI.spec().plugins()));
    }

    private static Map<String, JsonNode> env(JsonNode container) {
        Map<String, JsonNode> out = new HashMap<>();
        container.path("env").forEach(e -> out.put(e.path("name").asText(), e));
        return out;
    }

    @Test
    void pluginsComeInAFixedOrderWithTheirArguments() {
        List<JobPlugin> ps = JobPluginRegistry.defaults().plugins(MPI.spec().plugins());
        assertThat(ps).extracting(JobPlugin::name).containsExactly("env", "svc", "ssh", "mpi");
        MpiPlugin mpi = (MpiPlugin) ps.get(3);
        assertThat(mpi.master()).isEqualTo("mpimaster");
        assertThat(mpi.port()).isEqualTo(2222);
        assertThat(new MpiPlugin(List.of()).worker()).isEqualTo("worker");
        assertThat(new SshPlugin(List.of("--ssh-key-file-path", "/x")).keyPath())
                .isEqualTo("/x");
    }

    @Test
    void envGivesEveryContainerItsIndex() {
        JsonNode c = pod("mpiworker", 1).path("spec").path("containers").get(0);
        assertThat(env(c).get("VK_TASK_INDEX").path("value").asText()).isEqualTo("1");
        assertThat(env(c).get("VC_TASK_INDEX").path("value").asText()).isEqualTo("1");
    }

    @Test
    void svcPublishesHostsThroughAConfigMapAndAHeadlessService() {
        ObjectNode p = pod("mpiworker", 0);
        assertThat(p.path("spec").path("hostname").asText()).isEqualTo("mpi-mpiworker-0");
        assertThat(p.path("spec").path("subdomain").asText()).isEqualTo("mpi");
        JsonNode hosts = env(p.path("spec").path("containers").get(0)).get("VC_MPIWORKER_HOSTS");
        assertThat(hosts.path("valueFrom").path("configMapKeyRef").path("name").asText())
                .isEqualTo("mpi-svc");
        assertThat(p.path("spec").path("volumes").findValuesAsText("name")).contains("mpi-svc");

        Map<String, String> data = SvcPlugin.hosts(MPI);
        assertThat(data)
                .containsEntry("VC_MPIWORKER_HOSTS", "mpi-mpiworker-0.mpi,mpi-mpiworker-1.mpi")
                .containsEntry("VC_MPIWORKER_NUM", "2")
                .containsEntry("mpiworker.host", "mpi-mpiworker-0.mpi\nmpi-mpiworker-1.mpi")
                .containsEntry("VC_MPIMASTER_NUM", "1");

        List<WorldAction> add = new SvcPlugin(List.of("--disable-network-policy")).onJobAdd(MPI);
        assertThat(add).hasSize(2);
        WorldAction.CreateObject svc = (WorldAction.CreateObject) add.get(1);
        assertThat(svc.object().path("spec").path("clusterIP").asText()).isEqualTo("None");
        assertThat(new SvcPlugin(List.of()).onJobAdd(MPI)).hasSize(3);
    }

    @Test
    void sshMountsAKeySecretTheEngineDoesNotGenerate() {
        ObjectNode p = pod("mpimaster", 0);
        JsonNode mount = p.path("spec").path("containers").get(0).path("volumeMounts");
        List<String> paths = new ArrayList<>();
        mount.forEach(m -> paths.add(m.path("mountPath").asText()));
        assertThat(paths).contains("/home/mpi/.ssh");
        WorldAction.RequestSshSecret secret = (WorldAction.RequestSshSecret)
                new SshPlugin(List.of()).onJobAdd(MPI).get(0);
        assertThat(secret.name()).isEqualTo("mpi-ssh");
        assertThat(secret.keyEntries()).containsExactly("id_rsa", "id_rsa.pub", "authorized_keys");
        assertThat(secret.data().get("config"))
                .contains("Host mpi-mpiworker-1\n  HostName mpi-mpiworker-1.mpi\n  Port 22\n");
        WorldAction.RequestSshSecret onPort = (WorldAction.RequestSshSecret)
                new SshPlugin(List.of("--ssh-port=2022")).onJobAdd(MPI).get(0);
        assertThat(onPort.data().get("config")).contains("  HostName mpi-mpiworker-0.mpi\n  Port 2022\n");
        WorldAction.RequestSshSecret given =
                (WorldAction.RequestSshSecret) new SshPlugin(List.of("--ssh-private-key=PRIV", "--ssh-public-key=PUB"))
                        .onJobAdd(MPI)
                        .get(0);
        assertThat(given.keyEntries()).isEmpty();
        assertThat(given.data()).containsEntry("authorized_keys", "PUB");
    }

    @Test
    void mpiWiresTheMasterToTheWorkersAndOpensThePort() {
        JsonNode master = pod("mpimaster", 0).path("spec").path("containers").get(0);
        assertThat(env(master).get("MPI_HOST").path("value").asText())
                .isEqualTo("mpi-mpiworker-0.mpi,mpi-mpiworker-1.mpi");
        assertThat(master.path("ports").findValuesAsText("name")).contains("mpijob-port");
        JsonNode worker = pod("mpiworker", 0).path("spec").path("containers").get(0);
        assertThat(env(worker)).doesNotContainKey("MPI_HOST");
        assertThat(worker.path("ports").get(0).path("containerPort").asInt()).isEqualTo(2222);
    }

    @Test
    void thePodCarriesVolcanosLabelsAndAnnotations() {
        ObjectNode p = pod("mpiworker", 1);
        JsonNode meta = p.path("metadata");
        assertThat(meta.path("name").asText()).isEqualTo("mpi-mpiworker-1");
        assertThat(meta.path("namespace").asText()).isEqualTo("hpc");
        assertThat(meta.path("annotations").path("volcano.sh/job-version").asText())
                .isEqualTo("2");
        assertThat(meta.path("annotations").path("scheduling.k8s.io/group-name").asText())
                .isEqualTo("mpi-pg");
        assertThat(meta.path("annotations").path("volcano.sh/task-spec").asText())
                .isEqualTo("mpiworker");
        assertThat(meta.path("labels").path("volcano.sh/job-name").asText()).isEqualTo("mpi");
        assertThat(meta.path("labels").path("volcano.sh/task-index").asText()).isEqualTo("1");
        assertThat(meta.path("ownerReferences").get(0).path("kind").asText()).isEqualTo("Job");
        assertThat(p.path("spec").path("schedulerName").asText()).isEqualTo("volcano");
    }

    @Test
    void svcCanLeaveTheHostsOutOfTheEnvironment() {
        JsonNode withEnv = pod("mpiworker", 0).path("spec").path("containers").get(0);
        assertThat(env(withEnv)).containsKeys("VC_MPIWORKER_HOSTS", "VC_MPIMASTER_NUM");
        ObjectNode p = JobPods.create(
                MPI,
                MPI.spec().tasksOrEmpty().get(1),
                0,
                2,
                1,
                "mpi-pg",
                List.of(new SvcPlugin(List.of("--inject-hosts-env=false"))));
        JsonNode c = p.path("spec").path("containers").get(0);
        assertThat(env(c)).doesNotContainKeys("VC_MPIWORKER_HOSTS", "VC_MPIMASTER_NUM");
        assertThat(c.path("volumeMounts").findValuesAsText("mountPath")).contains(SvcPlugin.MOUNT_PATH);
    }

    /** Every argument Volcano's env, svc, ssh and mpi plugins would not read is refused, with Go's words. */
    @Test
    void argumentsVolcanoWouldNotReadAreRefused() {
        assertThat(new EnvPlugin(List.of()).validate(MPI.spec())).isEmpty();
        assertThat(new EnvPlugin(List.of("--index-from=1")).validate(MPI.spec()))
                .containsExactly("the env plugin takes no arguments, got [--index-from=1]");
        assertThat(new SvcPlugin(List.of("--publish-not-ready-addresses", "--disable-network-policy=true"))
                        .validate(MPI.spec()))
                .isEmpty();
        assertThat(new SvcPlugin(List.of("--publish-not-ready")).validate(MPI.spec()))
                .singleElement()
                .asString()
                .startsWith("flag provided but not defined: -publish-not-ready");
        assertThat(new SvcPlugin(List.of("--inject-hosts-env=maybe")).validate(MPI.spec()))
                .containsExactly("invalid boolean value \"maybe\" for -inject-hosts-env: parse error");
        assertThat(new SshPlugin(List.of("--ssh-port=0")).validate(MPI.spec()))
                .containsExactly("--ssh-port: 0 is not a port (1 to 65535)");
        assertThat(new SshPlugin(List.of("--ssh-private-key=PRIV")).validate(MPI.spec()))
                .singleElement()
                .asString()
                .startsWith("--ssh-private-key and --ssh-public-key: give both or neither");
        assertThat(new SshPlugin(List.of("--ssh-key-file-path")).validate(MPI.spec()))
                .containsExactly("flag needs an argument: -ssh-key-file-path");
        assertThat(new MpiPlugin(List.of("--master=mpimaster", "--port=70000")).validate(MPI.spec()))
                .containsExactly("--port: 70000 is not a port (1 to 65535)");
        assertThat(new MpiPlugin(List.of("--master=mpimaster", "--hostfile=/etc/hosts")).validate(MPI.spec()))
                .singleElement()
                .asString()
                .startsWith("flag provided but not defined: -hostfile");
    }
}
