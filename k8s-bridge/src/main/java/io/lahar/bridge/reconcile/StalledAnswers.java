package io.lahar.bridge.reconcile;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Fails an answer of the Kubernetes API whose body stops coming: no part of it for {@code idle}
 * ends the call as an API that does not answer (a {@link SocketTimeoutException} among the
 * failure's causes, which the input loop takes for a passing failure and tries again), and resets
 * its connection. Why: the client's
 * request timeout ends when the headers arrive, and its Vert.x connections have no idle timeout,
 * so an answer whose body stalled after its headers (a connection lost mid-answer, an API server
 * that froze) held the calling thread for good: a lane of the input loop, a status write and the
 * lock it holds, an informer's start. A body that keeps coming, however slowly, is left alone, and
 * so are watches, whose silence is normal (the client's watch manager keeps them alive).
 */
public final class StalledAnswers implements Interceptor {

    /** The name it is installed under on a client's HTTP client. */
    public static final String NAME = "lahar-stalled-answers";

    /** How often the bodies under way are looked at: a stalled one ends at most this long after its silence. */
    static final Duration SWEEP = Duration.ofMillis(500);

    /**
     * The bodies under way, of every client, looked at by one sweep. Why not a timer per call: a
     * check scheduled and cancelled per call woke the timer's thread for each call, a cost per pod
     * the sweep does not have (decision 063).
     */
    private static final Set<Watched> UNDER_WAY = ConcurrentHashMap.newKeySet();

    static {
        Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                        .daemon()
                        .name("lahar-stalled-answers")
                        .factory())
                .scheduleWithFixedDelay(
                        StalledAnswers::sweep, SWEEP.toMillis(), SWEEP.toMillis(), TimeUnit.MILLISECONDS);
    }

    private final long idleNanos;

    public StalledAnswers(Duration idle) {
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("idle must be positive, was " + idle);
        }
        this.idleNanos = idle.toNanos();
    }

    /**
     * Installs it on {@code http}, the HTTP client of a Kubernetes client of {@code config}, with the
     * configuration's request timeout for silence (fabric8's default when it has none).
     */
    public static void install(HttpClient.Builder http, Config config) {
        Integer configured = config.getRequestTimeout();
        int timeout = configured != null && configured > 0 ? configured : Config.DEFAULT_REQUEST_TIMEOUT;
        http.addOrReplaceInterceptor(NAME, new StalledAnswers(Duration.ofMillis(timeout)));
    }

    @Override
    public AsyncBody.Consumer<List<ByteBuffer>> consumer(
            AsyncBody.Consumer<List<ByteBuffer>> consumer, HttpRequest request) {
        return isWatch(request) ? consumer : new Watched(consumer, idleNanos);
    }

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        // Installed last, this is the outermost consumer (HttpClient.Factory#newBuilder(Config) adds the client's own
        // first).
        if (consumer instanceof Watched watched && response.body() instanceof AsyncBody body) {
            watched.arm(body);
        }
    }

    static boolean isWatch(HttpRequest request) {
        String query = request.uri().getRawQuery();
        return query != null && ("&" + query).contains("&watch=true");
    }

    private static void sweep() {
        long now = System.nanoTime();
        for (Watched watched : UNDER_WAY) {
            try {
                watched.endIfSilent(now);
            } catch (RuntimeException e) {
                // One body's trouble must not end the sweeps of all the others.
                UNDER_WAY.remove(watched);
            }
        }
    }

    /** The body's consumer, noting when a part of the body last came. */
    private static final class Watched implements AsyncBody.Consumer<List<ByteBuffer>> {

        private final AsyncBody.Consumer<List<ByteBuffer>> delegate;
        private final long idleNanos;
        private volatile long lastPart;
        private volatile AsyncBody body;

        Watched(AsyncBody.Consumer<List<ByteBuffer>> delegate, long idleNanos) {
            this.delegate = delegate;
            this.idleNanos = idleNanos;
        }

        @Override
        public void consume(List<ByteBuffer> value, AsyncBody asyncBody) throws Exception {
            lastPart = System.nanoTime();
            delegate.consume(value, asyncBody);
        }

        @Override
        public <U> U unwrap(Class<U> target) {
            U self = AsyncBody.Consumer.super.unwrap(target);
            return self != null ? self : delegate.unwrap(target);
        }

        /** The headers of {@code answer} came (again, after an interceptor's retry): its body is watched from now. */
        void arm(AsyncBody answer) {
            lastPart = System.nanoTime();
            body = answer;
            UNDER_WAY.add(this);
            answer.done().whenComplete((ignored, error) -> {
                if (body == answer) {
                    UNDER_WAY.remove(this);
                }
            });
        }

        void endIfSilent(long now) {
            AsyncBody answer = body;
            if (answer == null || answer.done().isDone()) {
                UNDER_WAY.remove(this);
                return;
            }
            if (now - lastPart < idleNanos) {
                return;
            }
            UNDER_WAY.remove(this);
            answer.done()
                    .completeExceptionally(new SocketTimeoutException("no part of the answer's body for "
                            + Duration.ofNanos(idleNanos).toMillis() + " ms"));
            answer.cancel();
        }
    }
}
