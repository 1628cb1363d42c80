package io.lahar.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP peer on 127.0.0.1 that answers every request with the headers of a JSON body and its
 * first byte, then sends nothing more, until the client closes the connection: a peer that froze,
 * or a connection lost, mid-answer. An HTTP client whose timeouts end at the headers waits on it
 * for good.
 */
public final class StalledHttpPeer implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final Semaphore closedByClient = new Semaphore(0);

    private StalledHttpPeer(ServerSocket server) {
        this.server = server;
    }

    public static StalledHttpPeer start() {
        try {
            StalledHttpPeer peer = new StalledHttpPeer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
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

    /** Whether the client closed {@code connections} connections (more) within {@code timeout}. */
    public boolean awaitClosedByClient(int connections, Duration timeout) throws InterruptedException {
        return closedByClient.tryAcquire(connections, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.add(socket);
                Thread.ofPlatform()
                        .daemon()
                        .name("stalled-http-peer-connection")
                        .start(() -> stall(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void stall(Socket socket) {
        try (socket) {
            socket.getInputStream().read(new byte[8192]);
            socket.getOutputStream()
                    .write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
                            .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            while (socket.getInputStream().read() >= 0) {
                // nothing more is sent, whatever comes
            }
            closedByClient.release();
        } catch (IOException e) {
            if (!server.isClosed()) {
                closedByClient.release(); // reset by the client
            }
        } finally {
            open.remove(socket);
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
