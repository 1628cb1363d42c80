package io.lahar.core.job.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.PodGroupPhase;
import io.lahar.core.job.Input;
import io.lahar.core.job.JobController;
import io.lahar.core.job.JobInfo;
import io.lahar.core.job.Outcome;
import io.lahar.core.job.TestJobs;
import io.lahar.core.job.WorldAction;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** core/README.md's recipe "Adding a job plugin", followed for {@link JobInfoPlugin}. */
class AddingAJobPluginTest {

    /** Step 2, in test scope: the defaults with the new plugin after them. */
    private static final JobPluginRegistry REGISTRY =
            JobPluginRegistry.defaults().with(JobInfoPlugin.TYPE);

    private static Job job(List<String> args) {
        Job j = TestJobs.job("train", "", "ps:1", "worker:2");
        return j.withSpec(j.spec().withPlugins(Map.of("env", List.of(), JobInfoPlugin.NAME, args)));
    }

    @Test
    void registeredItIsAKnownNameAfterTheOthers() {
        assertThat(REGISTRY.names())
                .containsExactly("env", "svc", "ssh", "mpi", "tensorflow", "pytorch", "hcclrank", "ray", "jobinfo");
        assertThat(REGISTRY.plugins(job(List.of()).spec().plugins()))
                .extracting(JobPlugin::name)
                .containsExactly("env", "jobinfo");
    }

    @Test
    void itsArgumentsAreCheckedAsAdmissionChecksThem() {
        assertThat(REGISTRY.validate(
                        "jobinfo", List.of("--env=JOB"), job(List.of()).spec()))
                .isEmpty();
        assertThat(REGISTRY.validate(
                        "jobinfo", List.of("--env", "1-bad"), job(List.of()).spec()))
                .containsExactly("--env: \"1-bad\" is not an environment variable name");
    }

    @Test
    void theControllerRunsItPodsObjectsAndRelease() {
        JobController controller = new JobController(16, REGISTRY);
        Outcome submitted = controller.apply(JobInfo.empty(), new Input.Submit(job(List.of("--env=JOB")), 0));
        assertThat(submitted.actions())
                .contains(new WorldAction.CreateConfigMap("train-jobinfo", Map.of("tasks", "ps 1\nworker 2")));
        assertThat(submitted.state().job().status().controlledResources()).containsEntry("plugin-jobinfo", "jobinfo");

        Outcome admitted = controller.apply(submitted.state(), new Input.PodGroupObserved(PodGroupPhase.Inqueue, 1));
        List<WorldAction.CreatePod> pods = admitted.actions().stream()
                .filter(a -> a instanceof WorldAction.CreatePod)
                .map(a -> (WorldAction.CreatePod) a)
                .toList();
        assertThat(pods)
                .hasSize(3)
                .allSatisfy(p -> assertThat(p.pod()
                                .path("spec")
                                .path("containers")
                                .get(0)
                                .path("env")
                                .findValuesAsText("name"))
                        .containsExactly("VK_TASK_INDEX", "VC_TASK_INDEX", "JOB"));
        // Initiated once: the plugin owns its objects until a kill or deletion gives them back.
        assertThat(admitted.actions()).noneMatch(a -> a instanceof WorldAction.CreateConfigMap);

        Outcome deleted = controller.apply(admitted.state(), new Input.Delete(2));
        assertThat(deleted.actions()).contains(new WorldAction.DeleteObject("ConfigMap", "train-jobinfo"));
    }

    @Test
    void itNamesOnlyTheKindItDeclares() {
        Set<String> declared = new TreeSet<>();
        JobInfoPlugin.TYPE.objects().forEach(k -> declared.add(k.kind()));
        assertThat(JobPluginRegistryTest.kindsNamed(JobInfoPlugin.TYPE.create(List.of()), job(List.of())))
                .isEqualTo(declared);
    }
}
