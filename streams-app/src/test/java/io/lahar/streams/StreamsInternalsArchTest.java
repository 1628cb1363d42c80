package io.lahar.streams;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.lahar.streams.job.kstreams.CommitHookStore;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams' internals are used in one place, this package: a Kafka upgrade that changes them
 * breaks the adapter and its tests, nothing else. A class elsewhere in the streams-app's main code
 * that depends on an {@code org.apache.kafka.streams..internals} class is a violation naming it.
 */
class StreamsInternalsArchTest {

    static final ArchRule ONLY_THE_ADAPTER_USES_INTERNALS = noClasses()
            .that()
            .resideOutsideOfPackage(CommitHookStore.class.getPackageName() + "..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.apache.kafka.streams..internals..")
            .because(
                    "Kafka Streams internals change without notice: one adapter owns them (io.lahar.streams.job.kstreams)");

    @Test
    void noClassOutsideTheAdapterDependsOnKafkaStreamsInternals() {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.lahar.streams");
        // Not vacuous: the engine and its store are among the classes checked, and the adapter does use internals.
        Set<String> found = main.stream().map(JavaClass::getName).collect(Collectors.toSet());
        assertThat(found)
                .contains(
                        "io.lahar.streams.job.JobEngine",
                        "io.lahar.streams.job.JobEntryStore",
                        "io.lahar.streams.job.JobLifecycleProcessor",
                        CommitHookStore.class.getName());
        assertThat(main.get(CommitHookStore.class).getDirectDependenciesFromSelf())
                .anySatisfy(d -> assertThat(d.getTargetClass().getPackageName()).contains(".internals"));

        EvaluationResult result = ONLY_THE_ADAPTER_USES_INTERNALS.evaluate(main);

        assertThat(result.hasViolation())
                .as(result.getFailureReport().toString())
                .isFalse();
    }

    @Test
    void aClassElsewhereThatUsesAnInternalIsAViolation() {
        JavaClasses fixture = new ClassFileImporter().importClasses(SwapsTheCurrentNode.class);

        EvaluationResult result = ONLY_THE_ADAPTER_USES_INTERNALS.evaluate(fixture);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line)
                        .contains(SwapsTheCurrentNode.class.getName())
                        .contains("InternalProcessorContext"));
    }

    /** What the rule is there to catch: a processor that reaches into Kafka Streams' context to forward from elsewhere. */
    static final class SwapsTheCurrentNode {
        void forwardAsParent(ProcessorContext<Object, Object> context) {
            InternalProcessorContext<Object, Object> internal = (InternalProcessorContext<Object, Object>) context;
            internal.setCurrentNode(null);
        }
    }
}
