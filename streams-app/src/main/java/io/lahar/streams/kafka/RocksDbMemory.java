package io.lahar.streams.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.jboss.logging.Logger;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * RocksDB's memory for every persistent store of this JVM, bounded as a whole, with memtables large
 * enough to hold a burst of job entries.
 *
 * <p>Kafka Streams' defaults give each store (one per store and partition: the streams-app has six
 * persistent stores over six partitions) its own 50 MB block cache and three 16 MB memtables, so the
 * off-heap memory grows with the partitions an instance owns, and a busy store flushes its memtable
 * every 16 MB of entries: each flush adds a sorted run that the universal compactions then rewrite
 * with the rest of the store. Here one LRU cache and one write buffer manager are shared by every
 * store (Kafka Streams' "bounded memory" recipe): the memtables of all stores together take at most
 * {@value #MEMTABLE_BYTES_CONFIG}, charged to the cache, whose capacity is that plus
 * {@value #BLOCK_CACHE_BYTES_CONFIG} for the blocks read back; one store's memtable may grow to
 * {@value #WRITE_BUFFER_BYTES_CONFIG}. Under exactly-once Kafka Streams flushes a task's stores at
 * its checkpoints (every 10,000 changelog records), so a busy store's memtable is flushed there, the
 * many versions of each entry written since folded into one, rather than every 16 MB
 * (docs/decisions/005-rocksdb-memory-budget.md).
 *
 * <p>The three settings are read from the Kafka Streams configuration ({@code kafka-streams.*}), in
 * bytes. Stores opened with the same three values share one cache and one manager; these live as
 * long as the JVM (a store closing must not close what the others use).
 */
public final class RocksDbMemory implements RocksDBConfigSetter {

    /** The memtables of all stores together, in bytes; past it the store being written flushes. */
    public static final String MEMTABLE_BYTES_CONFIG = "lahar.rocksdb.memtable-bytes";
    /** The cache for blocks read back from the stores' files, above the memtables, in bytes. */
    public static final String BLOCK_CACHE_BYTES_CONFIG = "lahar.rocksdb.block-cache-bytes";
    /** One store's memtable, in bytes: when it is full the store flushes it. */
    public static final String WRITE_BUFFER_BYTES_CONFIG = "lahar.rocksdb.write-buffer-bytes";

    static final long DEFAULT_MEMTABLE_BYTES = 512L << 20;
    static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;
    static final long DEFAULT_WRITE_BUFFER_BYTES = 64L << 20;

    private static final Logger LOG = Logger.getLogger(RocksDbMemory.class);

    /** Index and filter blocks are cached with high priority, in this share of the cache. */
    private static final double HIGH_PRIORITY_RATIO = 0.1;

    private static final Map<Budget, Shared> SHARED = new ConcurrentHashMap<>();

    /** The three settings, validated. */
    record Budget(long memtableBytes, long blockCacheBytes, long writeBufferBytes) {

        static Budget of(Map<String, ?> configs) {
            long memtables = bytes(configs, MEMTABLE_BYTES_CONFIG, DEFAULT_MEMTABLE_BYTES);
            long blocks = bytes(configs, BLOCK_CACHE_BYTES_CONFIG, DEFAULT_BLOCK_CACHE_BYTES);
            long writeBuffer = bytes(configs, WRITE_BUFFER_BYTES_CONFIG, DEFAULT_WRITE_BUFFER_BYTES);
            if (writeBuffer > memtables) {
                throw new ConfigException(
                        WRITE_BUFFER_BYTES_CONFIG,
                        writeBuffer,
                        "must be at most " + MEMTABLE_BYTES_CONFIG + " (" + memtables + ")");
            }
            return new Budget(memtables, blocks, writeBuffer);
        }

        private static long bytes(Map<String, ?> configs, String name, long fallback) {
            Object value = configs.get(name);
            if (value == null) {
                return fallback;
            }
            long bytes;
            try {
                bytes = value instanceof Number n
                        ? n.longValue()
                        : Long.parseLong(value.toString().trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(name, value, "must be a number of bytes");
            }
            if (bytes <= 0) {
                throw new ConfigException(name, value, "must be positive");
            }
            return bytes;
        }
    }

    /** What the stores with one budget share. */
    record Shared(Cache cache, WriteBufferManager writeBuffers) {

        static Shared of(Budget budget) {
            LOG.infof(
                    "RocksDB stores share %d MiB of memtables (up to %d MiB each) and a %d MiB block cache",
                    budget.memtableBytes() >> 20, budget.writeBufferBytes() >> 20, budget.blockCacheBytes() >> 20);
            Cache cache =
                    new LRUCache(budget.memtableBytes() + budget.blockCacheBytes(), -1, false, HIGH_PRIORITY_RATIO);
            return new Shared(cache, new WriteBufferManager(budget.memtableBytes(), cache));
        }
    }

    /** The cache and manager for this budget; the RocksDB library must be loaded (a store's options load it). */
    static Shared shared(Budget budget) {
        return SHARED.computeIfAbsent(budget, Shared::of);
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Budget budget = Budget.of(configs);
        Shared shared = shared(budget);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(shared.cache());
        // Index and filter blocks count against the cache too, or the bound would not hold; pinned
        // top-level ones and the high-priority pool keep the lookups from evicting them.
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setTableFormatConfig(table);
        options.setWriteBufferManager(shared.writeBuffers());
        options.setWriteBufferSize(budget.writeBufferBytes());
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and the manager are shared with the other stores: nothing of this store's to close.
    }
}
