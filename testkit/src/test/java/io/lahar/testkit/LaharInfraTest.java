package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaharInfraTest {

    @Test
    void registryUrlsAreNormalisedToTheV3ApiAndTheCcompatOneIsDerived() {
        for (String given : new String[] {
            "http://h:1",
            "http://h:1/",
            "http://h:1/apis/registry/v3",
            "http://h:1/apis/registry/v3/",
            "http://h:1/apis/ccompat/v7"
        }) {
            LaharInfra infra = LaharInfra.external("h:9", given);
            assertThat(infra.registryUrl()).as(given).isEqualTo("http://h:1/apis/registry/v3");
            assertThat(infra.ccompatUrl()).as(given).isEqualTo("http://h:1/apis/ccompat/v7");
        }
        assertThatThrownBy(() -> LaharInfra.normalizeRegistryUrl("http://h:1/apis/registry/v2"))
                .hasMessageContaining("neither the Apicurio v3 API");
    }

    @Test
    void externalInfrastructureIsNeitherOwnedNorStopped() {
        LaharInfra infra = LaharInfra.external(" 127.0.0.1:9092 ", "http://127.0.0.1:8081");
        assertThat(infra.isExternal()).isTrue();
        assertThat(infra.broker()).isEmpty();
        assertThat(infra.registry()).isEmpty();
        assertThat(infra.bootstrapServers()).isEqualTo("127.0.0.1:9092");
        infra.close();
        assertThat(infra.isClosed()).isTrue();
    }

    @Test
    void externalNeedsBothAddresses() {
        assertThatThrownBy(() -> LaharInfra.external("", "http://h:1")).hasMessageContaining("bootstrapServers");
        assertThatThrownBy(() -> LaharInfra.external("h:9", " ")).hasMessageContaining("registryUrl");
    }

    @Test
    void sharedUsesTheInfrastructureNamedBySystemProperties() {
        String oldBootstrap = System.getProperty(LaharInfra.KAFKA_BOOTSTRAP_PROPERTY);
        String oldRegistry = System.getProperty(LaharInfra.REGISTRY_URL_PROPERTY);
        LaharInfra.closeShared();
        try {
            System.setProperty(LaharInfra.KAFKA_BOOTSTRAP_PROPERTY, "127.0.0.1:1");
            System.setProperty(LaharInfra.REGISTRY_URL_PROPERTY, "http://127.0.0.1:2/apis/registry/v3");
            LaharInfra shared = LaharInfra.shared();
            assertThat(shared.isExternal()).isTrue();
            assertThat(shared.bootstrapServers()).isEqualTo("127.0.0.1:1");
            assertThat(LaharInfra.shared()).isSameAs(shared);
            assertThat(LaharInfraTestResource.properties(shared))
                    .containsEntry("kafka.bootstrap.servers", "127.0.0.1:1")
                    .containsEntry("quarkus.kafka-streams.bootstrap-servers", "127.0.0.1:1")
                    .containsEntry(
                            "mp.messaging.connector.smallrye-kafka.apicurio.registry.url",
                            "http://127.0.0.1:2/apis/registry/v3")
                    .containsEntry("apicurio.registry.url", "http://127.0.0.1:2/apis/registry/v3");
        } finally {
            LaharInfra.closeShared();
            restore(LaharInfra.KAFKA_BOOTSTRAP_PROPERTY, oldBootstrap);
            restore(LaharInfra.REGISTRY_URL_PROPERTY, oldRegistry);
        }
    }

    @Test
    void aSharedInstanceHandedToQuarkusOutlivesTheEndOfTheJUnitRun() {
        String oldBootstrap = System.getProperty(LaharInfra.KAFKA_BOOTSTRAP_PROPERTY);
        String oldRegistry = System.getProperty(LaharInfra.REGISTRY_URL_PROPERTY);
        LaharInfra.closeShared();
        try {
            System.setProperty(LaharInfra.KAFKA_BOOTSTRAP_PROPERTY, "127.0.0.1:1");
            System.setProperty(LaharInfra.REGISTRY_URL_PROPERTY, "http://127.0.0.1:2");
            LaharInfra plain = LaharInfra.shared();
            LaharInfra.closeSharedAfterTests();
            assertThat(plain.isClosed()).isTrue();

            Map<String, String> config = new LaharInfraTestResource().start();
            LaharInfra forQuarkus = LaharInfra.shared();
            assertThat(forQuarkus).isNotSameAs(plain);
            assertThat(config).containsEntry("apicurio.registry.url", forQuarkus.registryUrl());
            LaharInfra.closeSharedAfterTests();
            assertThat(forQuarkus.isClosed()).isFalse();
            assertThat(LaharInfra.shared()).isSameAs(forQuarkus);
        } finally {
            LaharInfra.closeShared();
            restore(LaharInfra.KAFKA_BOOTSTRAP_PROPERTY, oldBootstrap);
            restore(LaharInfra.REGISTRY_URL_PROPERTY, oldRegistry);
        }
    }

    @Test
    void deleteRecursivelyRemovesATreeAndIgnoresAMissingOne(@TempDir Path dir) throws Exception {
        Path tree = dir.resolve("kafka");
        Files.createDirectories(tree.resolve("a/b"));
        Files.writeString(tree.resolve("a/b/f"), "x");
        LaharInfra.deleteRecursively(tree);
        assertThat(tree).doesNotExist();
        LaharInfra.deleteRecursively(tree);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
