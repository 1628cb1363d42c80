package io.lahar.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.Job;
import io.lahar.core.api.ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which flow made a job, read from its createdByJobFlow mark. */
class CreatedByFlowTest {

    private static final String MARK = FlowRun.CREATED_BY_JOB_FLOW;

    private static Job job(String namespace, Map<String, String> labels, Map<String, String> annotations) {
        return new Job(
                Job.API_VERSION,
                Job.KIND,
                ObjectMeta.named(namespace, "test-a").withLabels(labels).withAnnotations(annotations),
                null,
                null);
    }

    @Test
    void theAnnotationNamesTheFlowOfTheJobsNamespace() {
        assertThat(CreatedByFlow.of(job("team", null, Map.of(MARK, "team.test"))))
                .contains("test");
        // Namespaces have no dots: the flow's name keeps the rest.
        assertThat(CreatedByFlow.of(job("team", null, Map.of(MARK, "team.my.flow"))))
                .contains("my.flow");
    }

    @Test
    void theLabelCountsOnlyWithoutTheAnnotation() {
        assertThat(CreatedByFlow.of(job("team", Map.of(MARK, "team.from-label"), null)))
                .contains("from-label");
        assertThat(CreatedByFlow.of(job("team", Map.of(MARK, "team.from-label"), Map.of(MARK, "team.from-annotation"))))
                .contains("from-annotation");
    }

    @Test
    void aJobWithoutAMarkOrWithOneOfAnotherNamespaceIsNoFlows() {
        assertThat(CreatedByFlow.of(job("team", null, null))).isEmpty();
        assertThat(CreatedByFlow.of(job("team", Map.of("app", "x"), Map.of("other", "team.test"))))
                .isEmpty();
        // Flows own jobs of their own namespace only: a mark naming another is not trusted.
        assertThat(CreatedByFlow.of(job("other", null, Map.of(MARK, "team.test"))))
                .isEmpty();
        // A job without a namespace is in "default", as kubectl would put it.
        assertThat(CreatedByFlow.of(job(null, null, Map.of(MARK, "default.test"))))
                .contains("test");
        for (String malformed : new String[] {"", "team", "team.", ".test", "teamtest"}) {
            assertThat(CreatedByFlow.of(job("team", null, Map.of(MARK, malformed))))
                    .as(malformed)
                    .isEmpty();
        }
    }
}
