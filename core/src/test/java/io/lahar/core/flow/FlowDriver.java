package io.lahar.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.JobFlowAdmission;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobPhase;
import io.lahar.core.api.JobStatus;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Drives the controller through inputs, keeping the state and every action, for the tests. */
final class FlowDriver {

    final JobFlowController controller = new JobFlowController();
    FlowInfo state = FlowInfo.empty();
    FlowOutcome last;
    final List<FlowAction> actions = new ArrayList<>();
    long time;

    static JobTemplate template(String name) {
        return Manifests.read("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobTemplate
                metadata: {name: %s}
                spec:
                  minAvailable: 1
                  queue: default
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      spec:
                        containers:
                        - name: main
                          image: img:1
                          command: [sh, -c, sleep 10s]
                          resources: {requests: {cpu: '1'}}
                        restartPolicy: OnFailure
                """.formatted(name), JobTemplate.class);
    }

    /** A JobFlow named {@code test} in namespace {@code ns}, admitted (so defaulted). */
    static JobFlow flow(String spec) {
        JobFlow f = Manifests.read("""
                apiVersion: flow.volcano.sh/v1alpha1
                kind: JobFlow
                metadata: {name: test, namespace: ns, uid: uid-1}
                spec:
                """ + spec.indent(2), JobFlow.class);
        AdmissionResult<JobFlow> r = JobFlowAdmission.create(f, AdmissionContext.freshInstall());
        assertThat(r.violations()).isEmpty();
        return r.object();
    }

    FlowOutcome apply(FlowInput in) {
        last = controller.apply(state, in);
        state = last.state();
        actions.addAll(last.actions());
        return last;
    }

    FlowOutcome submit(JobFlow f, String... templates) {
        List<JobTemplate> ts = new ArrayList<>();
        for (String t : templates) {
            ts.add(template(t));
        }
        return apply(new FlowInput.Submit(f, ts, time));
    }

    FlowOutcome job(String template, JobPhase phase) {
        return apply(new FlowInput.JobStatusObserved("test-" + template, phase, Map.of(), 0, time));
    }

    FlowOutcome task(String template, JobPhase jobPhase, String task, String podPhase) {
        return apply(new FlowInput.JobStatusObserved(
                "test-" + template, jobPhase, Map.of(task, new JobStatus.TaskState(Map.of(podPhase, 1))), 0, time));
    }

    FlowOutcome tick(long at) {
        time = at;
        return apply(new FlowInput.Tick(at));
    }

    /** Names of the jobs created by the last input. */
    List<String> created() {
        return last.actions().stream()
                .filter(a -> a instanceof FlowAction.CreateJob)
                .map(a -> ((FlowAction.CreateJob) a).job().name())
                .toList();
    }

    List<String> deleted() {
        return last.actions().stream()
                .filter(a -> a instanceof FlowAction.DeleteJob)
                .map(a -> ((FlowAction.DeleteJob) a).name())
                .toList();
    }

    String condition(String template) {
        return state.status().conditions().get("test-" + template).phase();
    }
}
