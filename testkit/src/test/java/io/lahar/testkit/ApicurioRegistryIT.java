package io.lahar.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A registry of its own: H2 files in the data directory when persistent, memory otherwise. */
class ApicurioRegistryIT {

    @TempDir
    Path dir;

    private static final String SCHEMA = """
            {"type":"record","name":"QueueStatus","fields":[{"name":"queue","type":"string"}]}""";

    @Test
    void aPersistentRegistryKeepsItsSchemasAcrossARestart() {
        int id;
        long firstPid;
        try (ApicurioRegistry registry = ApicurioRegistry.start(dir, true)) {
            firstPid = registry.pid();
            System.out.printf(
                    "apicurio registry (persistent, fresh): started in %d ms, RSS %d MB%n",
                    registry.startupTime().toMillis(), registry.rssBytes().orElse(0) / (1024 * 1024));
            Ccompat.Answer answer = new Ccompat(registry.ccompatUrl()).register("queues-value", SCHEMA);
            assertThat(answer.status()).isEqualTo(200);
            id = answer.body().get("id").asInt();
        }
        assertThat(ProcessHandle.of(firstPid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThat(dir.resolve("registry"))
                .isDirectoryContaining(p -> p.getFileName().toString().startsWith("registry-db"));

        try (ApicurioRegistry registry = ApicurioRegistry.start(dir, true)) {
            System.out.printf(
                    "apicurio registry (persistent, restart): started in %d ms, RSS %d MB%n",
                    registry.startupTime().toMillis(), registry.rssBytes().orElse(0) / (1024 * 1024));
            Ccompat ccompat = new Ccompat(registry.ccompatUrl());
            Ccompat.Answer latest = ccompat.get("/subjects/queues-value/versions/latest");
            assertThat(latest.status()).isEqualTo(200);
            assertThat(latest.body().get("id").asInt()).isEqualTo(id);
            assertThat(ccompat.get("/config").body().get("compatibilityLevel").asText())
                    .isEqualTo("BACKWARD");
        }
    }

    @Test
    void anInMemoryRegistryStartsEmptyAndIsReapedOnClose() {
        ApicurioRegistry registry = ApicurioRegistry.start(dir, false);
        long pid = registry.pid();
        try {
            assertThat(registry.url()).isEqualTo("http://127.0.0.1:" + registry.port() + "/apis/registry/v3");
            assertThat(registry.managementPort()).isNotEqualTo(registry.port());
            Ccompat ccompat = new Ccompat(registry.ccompatUrl());
            assertThat(ccompat.get("/subjects").body()).isEmpty();
            assertThat(ccompat.register("queues-value", SCHEMA).status()).isEqualTo(200);
            assertThat(ccompat.get("/subjects").body()).hasSize(1);
        } finally {
            registry.close();
        }
        assertThat(registry.isAlive()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
        assertThat(dir.resolve("registry"))
                .isDirectoryNotContaining(p -> p.getFileName().toString().startsWith("registry-db"));
    }
}
