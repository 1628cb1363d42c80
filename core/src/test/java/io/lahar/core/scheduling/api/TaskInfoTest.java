package io.lahar.core.scheduling.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskInfoTest {

    /** Volcano's GetPodPreemptable (pod_info.go), with Go's strconv.ParseBool. */
    @ParameterizedTest(name = "annotation {0}, label {1} -> {2}")
    @CsvSource(
            nullValues = "-",
            value = {
                "-, -, true",
                "false, -, false",
                "true, -, true",
                "-, false, false",
                "-, 0, false",
                "-, F, false",
                "-, True, true",
                "1, false, true",
                "false, true, false",
                "no, true, false",
                "tRuE, -, false",
                "'', -, false"
            })
    void preemptableIsTheAnnotationElseTheLabelAsGoParsesABool(String annotation, String label, boolean expected) {
        Map<String, String> annotations = annotation == null ? Map.of() : Map.of("volcano.sh/preemptable", annotation);
        Map<String, String> labels = label == null ? Map.of() : Map.of("volcano.sh/preemptable", label);
        assertThat(TaskInfo.preemptableOf(labels, annotations)).isEqualTo(expected);
    }
}
