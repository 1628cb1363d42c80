package io.lahar.system;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.lahar.schema.KafkaClients;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Every Kafka client in the main code of every module (the three services, the console, the schemas, the CLI)
 * is built by {@link KafkaClients}, so every one connects with the same {@code kafka.} settings
 * (security protocol, SASL, TLS): a producer, consumer, admin client or streams client built
 * anywhere else is a violation naming its class and line. Kafka Streams itself is built by Quarkus
 * from the same settings (SecureSystemIT runs the services on a SASL_SSL listener only).
 */
class KafkaClientsArchTest {

    private static final Set<String> CLIENTS = Set.of(
            "org.apache.kafka.clients.producer.KafkaProducer",
            "org.apache.kafka.clients.consumer.KafkaConsumer",
            "org.apache.kafka.streams.KafkaStreams");
    private static final String ADMIN = "org.apache.kafka.clients.admin.Admin";

    private static final DescribedPredicate<JavaAccess<?>> BUILDS_A_CLIENT =
            DescribedPredicate.describe("builds a Kafka client", access -> {
                JavaClass owner = access.getTargetOwner();
                if (access instanceof JavaConstructorCall) {
                    return CLIENTS.stream().anyMatch(owner::isAssignableTo);
                }
                return access.getName().equals("create") && owner.isAssignableTo(ADMIN);
            });

    static final ArchRule ONLY_KAFKA_CLIENTS_BUILDS_CLIENTS = noClasses()
            .that()
            .doNotHaveFullyQualifiedName(KafkaClients.class.getName())
            .should()
            .accessTargetWhere(BUILDS_A_CLIENT)
            .because("every client connects with the one kafka. configuration (KafkaClients)");

    @Test
    void noModuleBuildsAKafkaClientOtherThanThroughKafkaClients() {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(
                        "io.lahar.streams",
                        "io.lahar.scheduler",
                        "io.lahar.bridge",
                        "io.lahar.console",
                        "io.lahar.schema",
                        "io.lahar.cli");
        // Not vacuous: the main code of each module was found, the classes that build clients among it.
        Set<String> found = main.stream().map(JavaClass::getName).collect(Collectors.toSet());
        assertThat(found)
                .contains(
                        "io.lahar.streams.rest.CommandGateway",
                        "io.lahar.streams.clock.Ticker",
                        "io.lahar.streams.rest.TransitionReader",
                        "io.lahar.streams.kafka.GlobalDeadLetters$Producer",
                        "io.lahar.scheduler.loop.SchedulingLoop",
                        "io.lahar.scheduler.loop.LeaderElection",
                        "io.lahar.bridge.kafka.BridgeConsumer",
                        "io.lahar.bridge.kafka.KafkaRecordSink",
                        "io.lahar.bridge.kafka.DeletionLookahead",
                        "io.lahar.console.feed.TopicFeed",
                        "io.lahar.console.api.RecordLookup",
                        "io.lahar.console.metrics.ConsumerLag",
                        "io.lahar.schema.TopicBootstrap",
                        "io.lahar.cli.SubmitCommand");

        EvaluationResult result = ONLY_KAFKA_CLIENTS_BUILDS_CLIENTS.evaluate(main);

        assertThat(result.hasViolation())
                .as(result.getFailureReport().toString())
                .isFalse();
    }

    @Test
    void aClientBuiltElsewhereIsAViolation() {
        JavaClasses fixture = new ClassFileImporter().importClasses(BuildsItsOwnProducer.class);

        EvaluationResult result = ONLY_KAFKA_CLIENTS_BUILDS_CLIENTS.evaluate(fixture);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line)
                        .contains(BuildsItsOwnProducer.class.getName())
                        .contains("KafkaProducer"));
    }

    /** What the rule is there to catch: a producer with the broker's address and nothing else. */
    static final class BuildsItsOwnProducer {
        KafkaProducer<String, String> producer(String bootstrap) {
            return new KafkaProducer<>(
                    Map.of("bootstrap.servers", bootstrap), new StringSerializer(), new StringSerializer());
        }
    }
}
