package io.lahar.core.scheduling.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.core.api.ObjectMeta;
import io.lahar.core.api.PriorityClass;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A priorityClassName's value as Volcano's scheduler cache resolves a job's priority. */
class PriorityClassesTest {

    private static PriorityClass pc(String name, int value, boolean globalDefault) {
        return PriorityClass.of(name, value, globalDefault);
    }

    @Test
    void theNamedClassesValueElseTheGlobalDefaultsElseZero() {
        assertThat(PriorityClasses.NONE.valueOf("high")).isZero();
        assertThat(PriorityClasses.NONE.valueOf(null)).isZero();

        PriorityClasses classes = PriorityClasses.of(List.of(pc("high", 1000, false), pc("low", -5, false)));
        assertThat(classes.valueOf("high")).isEqualTo(1000);
        assertThat(classes.valueOf("low")).isEqualTo(-5);
        assertThat(classes.valueOf("missing")).as("a class that does not exist").isZero();
        assertThat(classes.valueOf("")).isZero();

        PriorityClasses withDefault = PriorityClasses.of(
                List.of(pc("high", 1000, false), pc("normal", 10, true), pc("other-default", 20, true)));
        assertThat(withDefault.valueOf("high")).isEqualTo(1000);
        assertThat(withDefault.valueOf("missing"))
                .as("a class that does not exist: the global default's value, the lowest of several")
                .isEqualTo(10);
        assertThat(withDefault.valueOf(null)).isEqualTo(10);
        assertThat(PriorityClasses.of(List.of(pc("a-default", 30, true), pc("z-default", 5, true)))
                        .valueOf(null))
                .as("the lowest value, as Kubernetes' Priority admission picks, not the first by name")
                .isEqualTo(5);
    }

    @Test
    void aClassChangedOrDeletedChangesTheValueOfWhatNamesIt() {
        PriorityClasses before = PriorityClasses.of(List.of(pc("high", 1000, false), pc("normal", 10, true)));
        PriorityClasses changed = PriorityClasses.of(List.of(pc("high", 2000, false), pc("normal", 10, true)));
        PriorityClasses highDeleted = PriorityClasses.of(List.of(pc("normal", 10, true)));
        PriorityClasses defaultDeleted = PriorityClasses.of(List.of(pc("high", 1000, false)));

        assertThat(before.valueOf("high")).isEqualTo(1000);
        assertThat(changed.valueOf("high")).isEqualTo(2000);
        assertThat(highDeleted.valueOf("high"))
                .as("a class deleted: the global default's value")
                .isEqualTo(10);
        assertThat(defaultDeleted.valueOf("missing"))
                .as("the global default deleted: 0")
                .isZero();
        assertThat(defaultDeleted.valueOf("high")).isEqualTo(1000);
    }

    private static PriorityClass withPolicy(String name, int value, boolean globalDefault, String policy) {
        return new PriorityClass(
                PriorityClass.API_VERSION,
                PriorityClass.KIND,
                ObjectMeta.named(name),
                value,
                globalDefault,
                null,
                policy);
    }

    @Test
    void aPodsPreemptionPolicyIsItsOwnElseItsClassesElseTheGlobalDefaults() {
        PriorityClasses classes = PriorityClasses.of(List.of(
                withPolicy("gentle", 1000, false, "Never"),
                withPolicy("pushy", 1000, false, "PreemptLowerPriority"),
                pc("plain", 10, false)));
        assertThat(classes.podPreemptionPolicy(null, "gentle")).isEqualTo("Never");
        assertThat(classes.podPreemptionPolicy(null, "pushy"))
                .as("PreemptLowerPriority")
                .isNull();
        assertThat(classes.podPreemptionPolicy(null, "plain")).isNull();
        assertThat(classes.podPreemptionPolicy(null, null))
                .as("no global default")
                .isNull();
        assertThat(classes.podPreemptionPolicy("Never", "plain"))
                .as("the pod's own")
                .isEqualTo("Never");
        assertThat(classes.podPreemptionPolicy("PreemptLowerPriority", "gentle"))
                .isEqualTo("PreemptLowerPriority");

        PriorityClasses gentleDefault =
                PriorityClasses.of(List.of(withPolicy("gentle-default", 5, true, "Never"), pc("plain", 10, false)));
        assertThat(gentleDefault.podPreemptionPolicy(null, null)).isEqualTo("Never");
        assertThat(gentleDefault.podPreemptionPolicy(null, "missing"))
                .as("a class that does not exist: the global default's")
                .isEqualTo("Never");
        assertThat(gentleDefault.podPreemptionPolicy(null, "plain")).isNull();
        assertThat(PriorityClasses.of(
                                List.of(withPolicy("gentle-default", 30, true, "Never"), pc("lower-default", 5, true)))
                        .podPreemptionPolicy(null, null))
                .as("of several global defaults the lowest value's, as for the value")
                .isNull();
    }
}
