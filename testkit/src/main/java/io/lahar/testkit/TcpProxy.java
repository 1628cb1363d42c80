package io.lahar.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on 127.0.0.1 in front of a service (the shared schema registry), which a test
 * can cut — the port refuses connections and every open one is closed, as when the service is
 * down — and restore on the same port. Why: an outage of the shared registry itself would fail
 * every other test of the run; a client pointed at the proxy sees the outage alone.
 */
public final class TcpProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final int port;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    private TcpProxy(InetSocketAddress target, int port) {
        this.target = target;
        this.port = port;
    }

    /** A proxy to {@code host:port}, on a free port, forwarding. */
    public static TcpProxy to(String host, int port) {
        // Off the ephemeral range: the port is bound again after each outage, when a client's
        // outgoing connection could otherwise have taken it meanwhile.
        TcpProxy proxy = new TcpProxy(new InetSocketAddress(host, port), FreePorts.next());
        proxy.restore();
        return proxy;
    }

    /** A proxy to the host and port of {@code url} (an http URL). */
    public static TcpProxy toUrl(String url) {
        URI uri = URI.create(url);
        return to(uri.getHost(), uri.getPort());
    }

    public int port() {
        return port;
    }

    /** {@code url} with its host and port replaced by the proxy's. */
    public String url(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://127.0.0.1:" + port + uri.getRawPath();
    }

    /** The service is down: connections are refused, open ones closed. */
    public synchronized void cut() {
        ServerSocket s = server;
        server = null;
        closeQuietly(s);
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /** The service is back, on the same port. */
    public synchronized void restore() {
        if (server != null) {
            return;
        }
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            server = s;
            Thread.ofPlatform().daemon().name("tcp-proxy-" + port).start(() -> accept(s));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port + " again", e);
        }
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            Socket client;
            try {
                client = s.accept();
            } catch (IOException e) {
                continue; // closed by cut()
            }
            try {
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                open.add(client);
                open.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                closeQuietly(client); // the service itself refused: so does the proxy
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread.ofPlatform().daemon().start(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // One side closed: close the other below.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        });
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        cut();
    }
}
