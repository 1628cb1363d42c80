package io.lahar.streams.job.kstreams;

import java.util.Map;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorNode;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A changelogged byte store that tells its {@link TaskCommit.Listener} before Kafka Streams commits
 * the task and when the task drops what it did not commit, and lets the listener forward from
 * there: the only code of the streams-app that uses Kafka Streams internals (the Kafka version pin
 * in the root pom.xml says so; CommitHookTest, on TopologyTestDriver, and CommitHookIT, on the
 * broker, fail if the hook stops being called before every commit).
 *
 * <p>The hook: before Kafka Streams commits a task it flushes the caches of its stores
 * ({@code StreamTask.prepareCommit} → {@code ProcessorStateManager.flushCache()}, which calls
 * {@link CachedStateStore#flushCache()} on each registered store that is one), then the record
 * collector, then commits the transaction with the input offsets. This store is the one registered
 * under its name (the inner store registers its root, this object) and is a {@link CachedStateStore},
 * the internal interface Kafka Streams' own caching stores implement. The public
 * {@link StateStore#flush()} is no such hook: under exactly-once it runs at a checkpoint, after
 * the commit. A task closed dirty goes through {@link #close()} without a flush; a recycled one
 * through {@link #clearCache()}; a re-initialised one through {@link #init}: each is a
 * {@link TaskCommit.Listener#discard()}.
 *
 * <p>The forward: Kafka Streams forwards only from the node being processed, with the record
 * context of its input, and the commit runs outside any node. {@link TaskCommit#forward} sets the
 * node and record context an {@link TaskCommit.Origin} captured, as Kafka Streams' own caches do
 * when they forward at a flush ({@code InternalProcessorContext.setCurrentNode}).
 *
 * <p>Reads (interactive queries) go to the inner store: the state as of the last commit.
 */
public final class CommitHookStore
        implements StateStore, CachedStateStore<String, byte[]>, ReadOnlyKeyValueStore<String, byte[]> {

    private static final TaskCommit.Listener NONE = new TaskCommit.Listener() {
        @Override
        public void beforeCommit() {}

        @Override
        public void discard() {}
    };

    private final KeyValueStore<String, byte[]> inner;
    private TaskCommit.Listener listener = NONE;

    CommitHookStore(KeyValueStore<String, byte[]> inner) {
        this.inner = inner;
    }

    /** Wraps the byte store {@code inner} builds; its cache cannot be enabled (the listener writes at the commit, after it). */
    public static StoreBuilder<CommitHookStore> builder(StoreBuilder<KeyValueStore<String, byte[]>> inner) {
        return new Builder(inner);
    }

    /** The store the listener writes to: what it puts there before a commit is in the commit's changelog. */
    public KeyValueStore<String, byte[]> inner() {
        return inner;
    }

    /** The task's commits as the processor of {@code context} (the processor this store is attached to) sees them. */
    public TaskCommit taskCommit(ProcessorContext<?, ?> context) {
        return new Commit(context);
    }

    void listen(TaskCommit.Listener listener) {
        this.listener = listener == null ? NONE : listener;
    }

    private final class Commit implements TaskCommit {
        private final InternalProcessorContext<?, ?> context;

        Commit(ProcessorContext<?, ?> context) {
            this.context = (InternalProcessorContext<?, ?>) context;
        }

        @Override
        public void listen(Listener listener) {
            CommitHookStore.this.listen(listener);
        }

        @Override
        public Origin origin() {
            return new At(context.currentNode(), context.recordContext());
        }

        @Override
        public void forward(Origin origin, Record<?, ?> record, String child) {
            At at = (At) origin;
            ProcessorNode<?, ?, ?, ?> node = context.currentNode();
            ProcessorRecordContext recordContext = context.recordContext();
            context.setCurrentNode(at.node);
            context.setRecordContext(at.recordContext);
            try {
                @SuppressWarnings("unchecked")
                ProcessorContext<Object, Object> forwarding = (ProcessorContext<Object, Object>) context;
                @SuppressWarnings("unchecked")
                Record<Object, Object> r = (Record<Object, Object>) record;
                forwarding.forward(r, child);
            } finally {
                context.setRecordContext(recordContext);
                context.setCurrentNode(node);
            }
        }
    }

    private record At(ProcessorNode<?, ?, ?, ?> node, ProcessorRecordContext recordContext)
            implements TaskCommit.Origin {}

    /** Kafka Streams is about to commit the task. */
    @Override
    public void flushCache() {
        listener.beforeCommit();
    }

    /** A checkpoint or a clean close: what the listener still holds is written, then the inner store flushed. */
    @Override
    public void flush() {
        listener.beforeCommit();
        inner.flush();
    }

    /** A task recycled (active to standby or back). */
    @Override
    public void clearCache() {
        listener.discard();
    }

    /** No Kafka Streams flush listener: what this store's listener forwards, it forwards itself. */
    @Override
    public boolean setFlushListener(CacheFlushListener<String, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        // A (re)initialised task starts from what the changelog restored.
        listener.discard();
        inner.init(context, root);
    }

    @Override
    public void close() {
        // Closed dirty (no flush before): what was not committed is dropped with its transaction.
        listener.discard();
        inner.close();
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return inner.query(query, positionBound, config);
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }

    @Override
    public byte[] get(String key) {
        return inner.get(key);
    }

    @Override
    public KeyValueIterator<String, byte[]> range(String from, String to) {
        return inner.range(from, to);
    }

    @Override
    public KeyValueIterator<String, byte[]> reverseRange(String from, String to) {
        return inner.reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<String, byte[]> all() {
        return inner.all();
    }

    @Override
    public KeyValueIterator<String, byte[]> reverseAll() {
        return inner.reverseAll();
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<String, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        return inner.prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        return inner.approximateNumEntries();
    }

    /** Builds the inner store as configured (logging on, by default) and wraps it. */
    private static final class Builder implements StoreBuilder<CommitHookStore> {
        private final StoreBuilder<KeyValueStore<String, byte[]>> inner;

        Builder(StoreBuilder<KeyValueStore<String, byte[]>> inner) {
            this.inner = inner;
        }

        /**
         * Refused: Kafka Streams flushes only the registered store's cache before a commit, so what the
         * listener writes then would stay in the inner store's cache, out of the commit's changelog.
         */
        @Override
        public StoreBuilder<CommitHookStore> withCachingEnabled() {
            throw new UnsupportedOperationException(
                    "the " + name() + " store cannot cache: what its listener writes at a commit"
                            + " would miss the commit's changelog");
        }

        @Override
        public StoreBuilder<CommitHookStore> withCachingDisabled() {
            inner.withCachingDisabled();
            return this;
        }

        @Override
        public StoreBuilder<CommitHookStore> withLoggingEnabled(Map<String, String> config) {
            inner.withLoggingEnabled(config);
            return this;
        }

        @Override
        public StoreBuilder<CommitHookStore> withLoggingDisabled() {
            inner.withLoggingDisabled();
            return this;
        }

        @Override
        public CommitHookStore build() {
            return new CommitHookStore(inner.build());
        }

        @Override
        public Map<String, String> logConfig() {
            return inner.logConfig();
        }

        @Override
        public boolean loggingEnabled() {
            return inner.loggingEnabled();
        }

        @Override
        public String name() {
            return inner.name();
        }
    }
}
