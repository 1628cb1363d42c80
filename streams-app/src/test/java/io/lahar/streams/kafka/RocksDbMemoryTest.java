package io.lahar.streams.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

class RocksDbMemoryTest {

    private static final long MIB = 1L << 20;

    @BeforeAll
    static void loadRocksDb() {
        // The cache and the manager are native objects; in Kafka Streams the store has loaded the library first.
        RocksDB.loadLibrary();
    }

    @Test
    void defaultsBoundAllStoresTogether() {
        RocksDbMemory.Budget budget = RocksDbMemory.Budget.of(Map.of());

        assertThat(budget).isEqualTo(new RocksDbMemory.Budget(512 * MIB, 64 * MIB, 64 * MIB));
    }

    @Test
    void readsNumbersAndTheirText() {
        RocksDbMemory.Budget budget = RocksDbMemory.Budget.of(Map.of(
                RocksDbMemory.MEMTABLE_BYTES_CONFIG,
                " 1000 ",
                RocksDbMemory.BLOCK_CACHE_BYTES_CONFIG,
                600,
                RocksDbMemory.WRITE_BUFFER_BYTES_CONFIG,
                200L));

        assertThat(budget).isEqualTo(new RocksDbMemory.Budget(1000, 600, 200));
    }

    @Test
    void rejectsWhatCannotBeABudgetNamingTheSetting() {
        assertThatThrownBy(() -> RocksDbMemory.Budget.of(Map.of(RocksDbMemory.MEMTABLE_BYTES_CONFIG, "512MiB")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(RocksDbMemory.MEMTABLE_BYTES_CONFIG)
                .hasMessageContaining("must be a number of bytes");
        assertThatThrownBy(() -> RocksDbMemory.Budget.of(Map.of(RocksDbMemory.BLOCK_CACHE_BYTES_CONFIG, 0)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(RocksDbMemory.BLOCK_CACHE_BYTES_CONFIG)
                .hasMessageContaining("must be positive");
        assertThatThrownBy(() -> RocksDbMemory.Budget.of(Map.of(
                        RocksDbMemory.MEMTABLE_BYTES_CONFIG,
                        32 * MIB,
                        RocksDbMemory.WRITE_BUFFER_BYTES_CONFIG,
                        33 * MIB)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(RocksDbMemory.WRITE_BUFFER_BYTES_CONFIG)
                .hasMessageContaining("at most " + RocksDbMemory.MEMTABLE_BYTES_CONFIG);
    }

    @Test
    void storesWithOneBudgetShareOneCacheAndManager() {
        RocksDbMemory.Budget one = new RocksDbMemory.Budget(32 * MIB, 8 * MIB, 8 * MIB);
        RocksDbMemory.Budget other = new RocksDbMemory.Budget(32 * MIB, 8 * MIB, 16 * MIB);

        assertThat(RocksDbMemory.shared(new RocksDbMemory.Budget(32 * MIB, 8 * MIB, 8 * MIB)))
                .isSameAs(RocksDbMemory.shared(one));
        assertThat(RocksDbMemory.shared(other)).isNotSameAs(RocksDbMemory.shared(one));
    }

    @Test
    void aStoreItConfiguresChargesItsMemtableToTheSharedCache(@TempDir Path dir) throws RocksDBException {
        Map<String, Object> configs = new HashMap<>();
        configs.put(RocksDbMemory.MEMTABLE_BYTES_CONFIG, 16 * MIB);
        configs.put(RocksDbMemory.BLOCK_CACHE_BYTES_CONFIG, 8 * MIB);
        configs.put(RocksDbMemory.WRITE_BUFFER_BYTES_CONFIG, 4 * MIB);
        RocksDbMemory.Shared shared = RocksDbMemory.shared(RocksDbMemory.Budget.of(configs));
        long before = shared.cache().getUsage();

        try (Options options =
                new Options().setCreateIfMissing(true).setTableFormatConfig(new BlockBasedTableConfig())) {
            new RocksDbMemory().setConfig("jobs", options, configs);
            assertThat(options.writeBufferSize()).isEqualTo(4 * MIB);
            try (RocksDB db = RocksDB.open(options, dir.toString())) {
                byte[] value = "x".repeat(1024).getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i < 2048; i++) {
                    db.put(("job-" + i).getBytes(StandardCharsets.UTF_8), value);
                }
                // The write buffer manager reserves what the memtable holds in the cache: that is the bound.
                assertThat(shared.cache().getUsage()).isGreaterThan(before);
            }
        }
    }
}
