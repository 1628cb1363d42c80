package io.lahar.core.scheduling.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobInfoTest {

    /**
     * Volcano's extractPreemptable (job_info.go): the pod group's annotation, else its label, with
     * Go's strconv.ParseBool; unlike a pod's, a group without either is not preemptable.
     */
    @ParameterizedTest(name = "annotation {0}, label {1} -> {2}")
    @CsvSource(
            nullValues = "-",
            value = {
                "-, -, false",
                "true, -, true",
                "-, true, true",
                "-, T, true",
                "-, 0, false",
                "1, false, true",
                "false, true, false",
                "no, true, false",
                "tRuE, -, false",
                "'', true, false"
            })
    void preemptableIsTheAnnotationElseTheLabelAsGoParsesABool(String annotation, String label, boolean expected) {
        Map<String, String> annotations = annotation == null ? Map.of() : Map.of("volcano.sh/preemptable", annotation);
        Map<String, String> labels = label == null ? Map.of() : Map.of("volcano.sh/preemptable", label);
        assertThat(JobInfo.preemptableOf(labels, annotations)).isEqualTo(expected);
    }
}
