package io.lahar.schema;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP peer on 127.0.0.1 that never gives a whole answer: by default it sends the headers of a
 * JSON body and its first byte, then nothing more until the client closes the connection (a peer
 * that froze, or a connection lost, mid-answer); {@link #startSilent()} sends nothing at all and
 * {@link #startTrickling(Duration)} sends its body a byte at a time. An HTTP client whose timeouts
 * end at the headers, or at a silence, waits on it for good.
 *
 * <p>In the schemas' test-jar rather than the testkit: the schemas' own tests use it, and the
 * testkit (the broker's and registry's launcher, which may come to need the schemas) is no
 * dependency of theirs.
 */
public final class StalledHttpPeer implements AutoCloseable {

    private static final byte[] HEADERS =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII);

    /** What the peer sends once it has read a request; returns when the client is gone. */
    @FunctionalInterface
    private interface Answer {
        void send(Socket socket) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final Answer answer;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Semaphore closedByClient = new Semaphore(0);

    private StalledHttpPeer(ServerSocket server, Answer answer) {
        this.server = server;
        this.answer = answer;
    }

    /** A peer that sends its answer's headers and the first byte of its body, then nothing. */
    public static StalledHttpPeer start() {
        return start(socket -> {
            OutputStream out = socket.getOutputStream();
            out.write(HEADERS);
            out.write('{');
            out.flush();
            awaitClientGone(socket);
        });
    }

    /** A peer that takes the connection and the request and never answers at all. */
    public static StalledHttpPeer startSilent() {
        return start(StalledHttpPeer::awaitClientGone);
    }

    /** A peer that sends its answer's headers, then a byte of its body every {@code pause}: never idle, never done. */
    public static StalledHttpPeer startTrickling(Duration pause) {
        return start(socket -> {
            OutputStream out = socket.getOutputStream();
            out.write(HEADERS);
            out.flush();
            while (true) {
                out.write(' ');
                out.flush();
                Thread.sleep(pause.toMillis());
            }
        });
    }

    private static StalledHttpPeer start(Answer answer) {
        try {
            StalledHttpPeer peer =
                    new StalledHttpPeer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), answer);
            Thread.ofPlatform().daemon().name("stalled-http-peer").start(peer::accept);
            return peer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** {@code 127.0.0.1:port}. */
    public String hostPort() {
        return "127.0.0.1:" + port();
    }

    /** {@code http://127.0.0.1:port}. */
    public String url() {
        return "http://" + hostPort();
    }

    /** How many connections the peer took. */
    public int accepted() {
        return accepted.get();
    }

    /** Whether the client closed {@code connections} connections (more) within {@code timeout}. */
    public boolean awaitClosedByClient(int connections, Duration timeout) throws InterruptedException {
        return closedByClient.tryAcquire(connections, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** How a call against the peer ended: what it threw (null if it returned) and when. */
    public record Ended(Throwable failure, Duration after) {}

    /**
     * Runs {@code call} on a thread of its own and waits for it to end: a call that waits on the
     * peer for good fails the test after {@code limit} rather than hanging it.
     */
    public Ended call(Callable<?> call, Duration limit) throws InterruptedException {
        FutureTask<?> running = new FutureTask<>(call);
        long started = System.nanoTime();
        Thread.ofVirtual().name("stalled-http-peer-call").start(running);
        Throwable failure = null;
        try {
            running.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            failure = e.getCause();
        } catch (TimeoutException e) {
            running.cancel(true);
            throw new AssertionError("the call still waits on the stalled peer after " + limit);
        }
        return new Ended(failure, Duration.ofNanos(System.nanoTime() - started));
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                accepted.incrementAndGet();
                open.add(socket);
                Thread.ofPlatform()
                        .daemon()
                        .name("stalled-http-peer-connection")
                        .start(() -> answer(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void answer(Socket socket) {
        try (socket) {
            socket.getInputStream().read(new byte[8192]);
            answer.send(socket);
            closedByClient.release();
        } catch (IOException e) {
            if (!server.isClosed()) {
                closedByClient.release(); // reset by the client
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(socket);
        }
    }

    private static void awaitClientGone(Socket socket) throws IOException {
        while (socket.getInputStream().read() >= 0) {
            // nothing more is sent, whatever comes
        }
    }

    @Override
    public void close() {
        try {
            server.close();
            for (Socket socket : open) {
                socket.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
